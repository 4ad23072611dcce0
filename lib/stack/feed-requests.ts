/**
 * What CloudFront does with a request for a feed before its cache (docs/design.md#feeds): a CloudFront Function
 * (viewer request, JavaScript runtime 2.0) that answers §15's 404 itself for any path that is not exactly
 * `/feeds/<token>/<file>` (the record's patterns), and otherwise picks the object of the encoding the client takes —
 * `<file>.gz` when its `Accept-Encoding` takes gzip, the XML's `<file>` when not (`s3-feed-files.ts`), so each is
 * cached on its own. The local server's rules, `feedFileOf` and `acceptsGzip` (`lib/local/feed-serving.ts`), are the
 * exact ones: a property test holds this code to them. The code is ES5, which every CloudFront runtime runs.
 */
import {
  FEED_FILE,
  FEED_NOT_FOUND_TEXT,
  FEED_TOKEN,
  FEEDS_PATH,
} from '../../lambda/domain/feed-registry/feed';
import { GZIPPED_SUFFIX } from '../../lambda/functions/feeds/s3-feed-files';

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

function acceptsGzip(header) {
  var gzip;
  var any;
  var members = header.split(',');
  for (var i = 0; i < members.length; i++) {
    var parts = members[i].split(';');
    var coding = parts[0].trim().toLowerCase();
    var weight = 1;
    for (var j = 1; j < parts.length; j++) {
      var parameter = parts[j].trim().toLowerCase();
      if (/^q\\s*=/.test(parameter)) {
        weight = Number(parameter.replace(/^q\\s*=\\s*/, '')) || 0;
        break;
      }
    }
    if (coding === 'gzip' || coding === 'x-gzip') gzip = Math.max(gzip === undefined ? 0 : gzip, weight);
    else if (coding === '*') any = weight;
  }
  var chosen = gzip !== undefined ? gzip : any !== undefined ? any : 0;
  return chosen > 0;
}

function handler(event) {
  var request = event.request;
  if (!FEED_PATH.test(request.uri)) return NOT_FOUND;
  var encoding = request.headers['accept-encoding'];
  if (encoding && acceptsGzip(encoding.value)) request.uri = request.uri + ${JSON.stringify(GZIPPED_SUFFIX)};
  return request;
}
`;
}
