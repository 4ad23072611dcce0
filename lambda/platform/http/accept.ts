/**
 * Content negotiation by `Accept` (RFC 9110 §12.5.1), for a route with two representations: JSON, and a JSON-LD
 * document. JSON is the default; JSON-LD only when the header ranks it above JSON.
 */

/** The media type of the JSON-LD representation, and its `Content-Type`. */
export const JSON_LD_MEDIA_TYPE = 'application/ld+json';
export const JSON_LD_CONTENT_TYPE = `${JSON_LD_MEDIA_TYPE}; charset=utf-8`;

// RFC 9110 §12.4.2: qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

interface MediaRange {
  readonly type: string;
  readonly subtype: string;
  readonly quality: number;
}

/** The media ranges of an `Accept` value, lower-cased; malformed entries are skipped, as RFC 9110 allows. */
function parseAccept(header: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const entry of header.split(',')) {
    const [range = '', ...parameters] = entry.split(';').map((part) => part.trim());
    const [type = '', subtype = '', ...rest] = range.toLowerCase().split('/');
    if (rest.length > 0 || !TOKEN.test(type) || !TOKEN.test(subtype) || (type === '*' && subtype !== '*'))
      continue;
    let quality = 1;
    let valid = true;
    for (const parameter of parameters) {
      const [name = '', value = ''] = parameter.split('=').map((part) => part.trim());
      if (name.toLowerCase() !== 'q') continue;
      valid = QVALUE.test(value);
      quality = Number(value);
    }
    if (valid) ranges.push({ type, subtype, quality });
  }
  return ranges;
}

/** How much the ranges accept a media type: the quality of the most specific range that matches it; 0 if none. */
function qualityOf(ranges: readonly MediaRange[], type: string, subtype: string): number {
  const specificity = (range: MediaRange) =>
    range.type === type && range.subtype === subtype
      ? 3
      : range.type === type && range.subtype === '*'
        ? 2
        : range.type === '*'
          ? 1
          : 0;
  let best: { specificity: number; quality: number } = { specificity: 0, quality: 0 };
  for (const range of ranges) {
    const rank = specificity(range);
    if (rank > best.specificity) best = { specificity: rank, quality: range.quality };
  }
  return best.quality;
}

/**
 * Whether `Accept` prefers JSON-LD: it accepts `application/ld+json` and ranks it above `application/json`
 * (`application/ld+json` alone, or `application/ld+json, application/json;q=0.5`). A tie, `*\/*`, no header: JSON.
 */
export function prefersJsonLd(accept: string | undefined): boolean {
  if (!accept) return false;
  const ranges = parseAccept(accept);
  const [type, subtype] = JSON_LD_MEDIA_TYPE.split('/') as [string, string];
  return qualityOf(ranges, type, subtype) > qualityOf(ranges, 'application', 'json');
}
