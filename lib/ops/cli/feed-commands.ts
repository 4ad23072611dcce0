/**
 * `vacancy-admin feed add|list|remove` (docs/operating.md#feeds): the commands over the operator's feeds
 * (`../feeds.ts`), each printing a feed's URL under the target's feed base — or one line saying the deployment has
 * none.
 */
import type { Command } from 'commander';
import {
  FEED_FORMATS,
  type FeedFormat,
  MAX_FEEDS_PER_VENDOR,
} from '../../../lambda/domain/feed-registry/feed';
import { LOCALES, type Locale } from '../../../lambda/domain/schema/vacancy';
import { UserError } from '../errors';
import { addFeed, awaitFirstBuild, type FeedView, feedView, listFeeds, removeFeed } from '../feeds';
import type { Target } from '../target';
import { action, parse } from './program';

/** Where the target's feeds are served; a one-line error when the deployment serves none. */
function hosting(target: Target): Exclude<Target['feeds'], { missing: string }> {
  if ('missing' in target.feeds) throw new UserError(`${target.feeds.missing}.`);
  return target.feeds;
}

function describe(view: FeedView): string {
  const built =
    view.lastBuildAt === undefined
      ? 'not built yet'
      : `built ${view.lastBuildAt}, ${view.vacancies ?? 0} vacancies${view.leftOut ? `, ${view.leftOut} left out (a URL no sitemap can list)` : ''}`;
  return `${view.feedId}  ${view.vendorId}  ${view.format}  ${view.lang}  ${view.url}  ${built}`;
}

/** `feed add|list|remove` (docs/operating.md#feeds). */
export function addFeedCommands(program: Command): void {
  const feed = program
    .command('feed')
    .description(
      "manage vendors' feeds: their listable vacancies as files job boards and search engines fetch",
    );

  feed
    .command('add')
    .description(
      `add a feed of a vendor's listable vacancies (at most ${MAX_FEEDS_PER_VENDOR} a vendor); prints its URL`,
    )
    .argument('<vendorId>', 'vendor id', parse.vendorId)
    .requiredOption(
      '--format <format>',
      `${FEED_FORMATS.join(' or ')}: Indeed's XML job feed (other boards read it too), or a sitemap`,
      parse.oneOf(FEED_FORMATS),
    )
    .option(
      '--lang <lang>',
      `the language of its labels, ${LOCALES.join(' or ')} (default: the deployment's defaultLocale)`,
      parse.oneOf(LOCALES),
    )
    .action(
      action(async (target, options, vendorId: string) => {
        const { base } = hosting(target);
        const added = await addFeed(
          target.documentClient,
          target.tables.vendors,
          vendorId,
          options.format as FeedFormat,
          (options.lang as Locale | undefined) ?? target.defaultLocale,
        );
        // Built at once, not at the vendor's next change: a stack's feeds function is invoked; the local server sees
        // the write, and its URL answers before this returns.
        await target.buildFeeds?.(vendorId);
        const view = feedView(added, base);
        if (target.local) await awaitFirstBuild(view);
        const line = `feed ${view.feedId} added for ${vendorId} (${view.format}, ${view.lang}): ${view.url}`;
        return {
          data: view,
          text: target.local
            ? line
            : `${line} — built within a minute or so, 404 until then ("feed list" says when it is built)`,
        };
      }),
    );

  feed
    .command('list')
    .description('list feeds: format, language, URL, last build and how many vacancies it holds')
    .option('--vendor <vendorId>', "only this vendor's", parse.vendorId)
    .action(
      action(async (target, options) => {
        const { base } = hosting(target);
        const views = (
          await listFeeds(target.documentClient, target.tables.vendors, options.vendor as string | undefined)
        ).map((listed) => feedView(listed, base));
        return { data: views, text: views.length > 0 ? views.map(describe) : 'no feeds' };
      }),
    );

  feed
    .command('remove <feedId>')
    .description('remove a feed: its URL answers 404 from then on')
    .action(
      action(async (target, _options, feedId: string) => {
        const { base, files } = hosting(target);
        const removed = await removeFeed(target.documentClient, target.tables.vendors, feedId, files);
        return {
          data: feedView(removed, base),
          text: `feed ${feedId} of ${removed.vendorId} removed`,
        };
      }),
    );
}
