#!/usr/bin/env node
/**
 * `npm run stateful`: what a deploy of this checkout would do to the resources that hold data, against the committed
 * manifest (`lib/stack/stateful-resources.json`) — nothing, or one line per change (replace, update in place, add or
 * drop an index). Exits 1 when there is a change. `npm run stateful -- --write` records this checkout's as the
 * manifest: a deliberate act, with its upgrade path in docs/operating.md#upgrading and the changelog.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type StatefulManifest, statefulChanges, statefulResources } from '../lib/synth/stateful-resources';
import { synthesizedTemplate } from '../lib/synth/template';

const MANIFEST = new URL('../lib/stack/stateful-resources.json', import.meta.url);
const synthesized = statefulResources(synthesizedTemplate());
if (process.argv.includes('--write')) {
  writeFileSync(MANIFEST, `${JSON.stringify(synthesized, null, 2)}\n`);
  // In the repository's own format, so that the lint passes on it as written.
  spawnSync('biome', ['format', '--write', fileURLToPath(MANIFEST)], { stdio: 'ignore' });
  console.log(
    `recorded ${Object.keys(synthesized).length} stateful resources in lib/stack/stateful-resources.json.`,
  );
} else {
  const changes = statefulChanges(
    JSON.parse(readFileSync(MANIFEST, 'utf8')) as StatefulManifest,
    synthesized,
  );
  console.log(changes.length === 0 ? 'no change to what holds data.' : changes.join('\n'));
  process.exitCode = changes.length === 0 ? 0 : 1;
}
