/**
 * What CloudFront does with a request for a feed before its cache (docs/design.md#feeds): a CloudFront Function
 * (viewer request, JavaScript runtime 2.0) that answers §15's 404 itself for any path that is not exactly
 * `/feeds/<token>/<file>` (the record's patterns), and otherwise picks the object of the encoding the client takes —
 * `<file>.gz` when its `Accept-Encoding` takes gzip by its q-values, the XML's `<file>` when not
 * (`s3-feed-files.ts`), so each is cached on its own — and drops a condition that is not one: an `If-Modified-Since`
 * that is not an HTTP-date, an `If-None-Match` that is neither `*` nor a list of entity tags, so that CloudFront's
 * cache, which answers the 304s, never reads one leniently (a viewer request's function may change both; an origin
 * request's may not). The local server's rules — `feedFileOf` and `acceptsGzip` (`lib/local/feed-serving.ts`),
 * `httpDate` and `isIfNoneMatch` (`lambda/platform/http/conditional.ts`) — are the exact ones: a property test holds
 * this code to them. The code is ES5, which every CloudFront runtime runs.
 */
import {
  FEED_FILE,
  FEED_NOT_FOUND_TEXT,
  FEED_TOKEN,
  FEEDS_PATH,
} from '../../lambda/domain/feed-registry/feed';
import { GZIPPED_SUFFIX } from '../../lambda/functions/feeds/s3-feed-files';
import { ENTITY_TAG_LIST, HTTP_DATE_FORMS, MONTHS } from '../../lambda/platform/http/conditional';
import { QVALUE } from '../local/feed-serving';

/** A pattern's source without its anchors, to be put inside another. */
const unanchored = (pattern: RegExp) => pattern.source.replace(/^\^/, '').replace(/\$$/, '');

/** A feed's path: `/feeds/<token>/<file>`, nothing more, nothing decoded. */
const FEED_PATH = new RegExp(
  `^${FEEDS_PATH.replace(/\//g, '\\/')}(?:${unanchored(FEED_TOKEN)})\\/(?:${unanchored(FEED_FILE)})$`,
);

/** The function's code, as CloudFront runs it: `handler(event)` of a viewer request. */
export function feedRequestCode(): string {
  return `var FEED_PATH = ${FEED_PATH.toString()};
var NOT_FOUND = {
  statusCode: 404,
  statusDescription: 'Not Found',
  headers: {
    'content-type': { value: 'text/plain; charset=utf-8' },
    'cache-control': { value: 'no-cache' }
  },
  body: { encoding: 'text', data: ${JSON.stringify(FEED_NOT_FOUND_TEXT)} }
};

var QVALUE = ${QVALUE.toString()};
var ENTITY_TAG_LIST = ${ENTITY_TAG_LIST.toString()};
var IMF_FIXDATE = ${HTTP_DATE_FORMS.imfFixdate.toString()};
var RFC850_DATE = ${HTTP_DATE_FORMS.rfc850.toString()};
var ASCTIME_DATE = ${HTTP_DATE_FORMS.asctime.toString()};
var MONTHS = ${JSON.stringify(MONTHS)};

function acceptsGzip(header) {
  var gzip;
  var any;
  var members = header.split(',');
  for (var i = 0; i < members.length; i++) {
    var parts = members[i].split(';');
    var coding = parts[0].trim().toLowerCase();
    var weight = 1;
    if (parts.length > 1) {
      var q = parts.length === 2 ? /^q=(.*)$/.exec(parts[1].trim().toLowerCase()) : null;
      weight = q && QVALUE.test(q[1]) ? Number(q[1]) : 0;
    }
    if (coding === 'gzip' || coding === 'x-gzip') gzip = Math.max(gzip === undefined ? 0 : gzip, weight);
    else if (coding === '*') any = weight;
  }
  var chosen = gzip !== undefined ? gzip : any !== undefined ? any : 0;
  return chosen > 0;
}

function isIfNoneMatch(value) {
  return /^[ \\t]*\\*[ \\t]*$/.test(value) || ENTITY_TAG_LIST.test(value);
}

function isHttpDate(text) {
  var day;
  var month;
  var year;
  var time;
  var m = IMF_FIXDATE.exec(text);
  if (m) {
    day = m[1]; month = m[2]; year = Number(m[3]); time = [m[4], m[5], m[6]];
  } else if ((m = RFC850_DATE.exec(text))) {
    var thisYear = new Date().getUTCFullYear();
    year = thisYear - (thisYear % 100) + Number(m[3]);
    if (year > thisYear + 50) year -= 100;
    day = m[1]; month = m[2]; time = [m[4], m[5], m[6]];
  } else if ((m = ASCTIME_DATE.exec(text))) {
    month = m[1]; day = m[2]; time = [m[3], m[4], m[5]]; year = Number(m[6]);
  } else return false;
  if (Number(time[0]) > 23 || Number(time[1]) > 59 || Number(time[2]) > 60) return false;
  var monthIndex = MONTHS.indexOf(month);
  var date = new Date(0);
  date.setUTCFullYear(year, monthIndex, Number(day));
  return date.getUTCMonth() === monthIndex && date.getUTCDate() === Number(day);
}

/** A header's values, a repeated one's joined as a list (as Node joins them). */
function headerValue(header) {
  if (!header.multiValue) return header.value;
  var values = [];
  for (var i = 0; i < header.multiValue.length; i++) values.push(header.multiValue[i].value);
  return values.join(', ');
}

function handler(event) {
  var request = event.request;
  if (!FEED_PATH.test(request.uri)) return NOT_FOUND;
  var headers = request.headers;
  var encoding = headers['accept-encoding'];
  if (encoding && acceptsGzip(encoding.value)) request.uri = request.uri + ${JSON.stringify(GZIPPED_SUFFIX)};
  if (headers['if-none-match'] && !isIfNoneMatch(headerValue(headers['if-none-match']))) delete headers['if-none-match'];
  if (headers['if-modified-since'] && !isHttpDate(headers['if-modified-since'].value)) delete headers['if-modified-since'];
  return request;
}
`;
}
