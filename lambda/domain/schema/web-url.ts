/**
 * The URL rule of what the service stores and hands on (docs/operating.md#imports, docs/operating.md#vendors-and-keys):
 * a vacancy's `url`, a vendor's website and logo. Each is parsed as browsers parse it (WHATWG `URL`) and stored in
 * the form that parser writes back (`URL.href`: scheme and host lower-cased, default port dropped, `..` resolved,
 * spaces, quotes, `<` and `>` percent-encoded) — so what a page or a search engine reads is what the parser would
 * have made of it anyway, never a string that only looks like a URL. One rule for the import, the seed file and the
 * ops CLI.
 */
import { characterCount } from './characters';

/** The longest URL stored, in characters, as given and as normalized (docs/operating.md#imports). */
export const MAX_URL_CHARACTERS = 2_048;

/** Which URLs a field takes: a vacancy's page may be http or https; what the operator sets of a vendor, https. */
export const URL_KINDS = {
  /** A vacancy's `url`: where the application happens. */
  vacancy: { protocols: ['http:', 'https:'], described: 'an absolute http(s) URL' },
  /** A vendor's website and logo (`vendor put --website --logo`), named by its JobPostings. */
  vendorLink: { protocols: ['https:'], described: 'an absolute https URL' },
} as const;

/** The kind of a URL field (`URL_KINDS`). */
export type UrlKind = keyof typeof URL_KINDS;

/** A URL checked: its normalized form, or the one line that says why it is refused, naming its field. */
export type UrlCheck =
  | { readonly ok: true; readonly url: string }
  | { readonly ok: false; readonly reason: string };

// Control characters: the parser would drop some silently (tab, line breaks) and encode the others.
const CONTROL = /\p{Cc}/u;
/**
 * A host as the parser writes it back: DNS labels (international names already in punycode), an IPv4 address, or an
 * IPv6 one in brackets. The parser keeps some characters no domain has (`"`, `'`, `{`…) in a host: refused.
 */
const HOST = /^(?:[a-z0-9_-]+\.)*[a-z0-9_-]+\.?$|^\[[0-9a-f:.]+\]$/;

/**
 * Checks a URL field against the rule of its kind and normalizes it: a string of valid Unicode without control
 * characters, an absolute URL of the kind's schemes with a host that is a name or an address, no user name or password (they would be shown to
 * every visitor), at most `MAX_URL_CHARACTERS` both as given and as stored.
 */
export function normalizeUrl(field: string, value: unknown, kind: UrlKind): UrlCheck {
  const { protocols, described } = URL_KINDS[kind];
  const refuse = (rule: string): UrlCheck => ({ ok: false, reason: `${field} must ${rule}` });
  if (typeof value !== 'string') return refuse(`be ${described}`);
  if (!value.isWellFormed()) return refuse('be valid Unicode text');
  if (CONTROL.test(value)) return refuse('not contain control characters');
  if (characterCount(value) > MAX_URL_CHARACTERS)
    return refuse(`be at most ${MAX_URL_CHARACTERS} characters`);
  const url = URL.parse(value);
  if (!url || !(protocols as readonly string[]).includes(url.protocol) || !HOST.test(url.hostname))
    return refuse(`be ${described}`);
  if (url.username !== '' || url.password !== '') return refuse('not contain a user name or password');
  if (url.href.length > MAX_URL_CHARACTERS)
    return refuse(`be at most ${MAX_URL_CHARACTERS} characters once normalized (${url.href.length})`);
  return { ok: true, url: url.href };
}
