/**
 * Stack traces that point at the TypeScript sources, at no cost to a cold start (docs/design.md#cold-start).
 *
 * Node's `--enable-source-maps` reads, parses and indexes a bundle's source map while the bundle loads: 10 to 17 ms
 * of every cold start, for stack traces that only an unexpected error ever prints. Instead, a bundle installs
 * `Error.prepareStackTrace` here, which costs nothing until a stack is read: then it reads the bundle's map once
 * (`index.mjs.map`, next to the bundle) and maps each frame in the bundle through Node's own `SourceMap`.
 */
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

/** Defined by the bundler (lib/stack/bundling.ts): true in a bundle that ships its source map. */
declare const VVA_LAZY_SOURCE_MAPS: boolean | undefined;

/** `file:///…/index.mjs:12:345`, at the end of a frame, alone or in parentheses. */
const LOCATION = /(\(?)([^\s()]+):(\d+):(\d+)(\)?)$/;

/** A source as the map names it, relative to the bundle's folder at build time: `../../lambda/x.ts` → `lambda/x.ts`. */
const projectPath = (source: string): string => source.replace(/^(\.\.\/)+/, '');

/**
 * One frame of a stack, its position in `bundle` replaced by the source's (other frames, such as Node's own, as
 * they are).
 */
export function mapFrame(frame: string, bundle: string, map: Pick<SourceMap, 'findOrigin'>): string {
  const match = LOCATION.exec(frame);
  if (!match || match[2] !== bundle) return frame;
  const origin = map.findOrigin(Number(match[3]), Number(match[4]));
  if (!('fileName' in origin)) return frame;
  const [, open, , , , close] = match;
  const location = `${projectPath(origin.fileName)}:${origin.lineNumber}:${origin.columnNumber}`;
  return `${frame.slice(0, match.index)}${open}${location}${close}`;
}

/**
 * Maps stack traces of the running bundle to its sources, reading the source map the first time a stack is
 * formatted. Does nothing outside a bundle (tests and `npm start` run the TypeScript itself, their stacks mapped by
 * their runners) or when Node maps them already (`--enable-source-maps`).
 */
export function mapStackTracesOnDemand(bundle: string = import.meta.url): void {
  if (typeof VVA_LAZY_SOURCE_MAPS === 'undefined' || !VVA_LAZY_SOURCE_MAPS || process.sourceMapsEnabled)
    return;
  let map: SourceMap | null | undefined;
  let formatting = false;
  Error.prepareStackTrace = (error, frames) => {
    const header = errorHeader(error);
    // A stack read while one is being formatted (reading the map failed, say) is left unmapped.
    if (formatting) return [header, ...frames.map((frame) => `    at ${frame}`)].join('\n');
    formatting = true;
    try {
      map ??= loadMap(bundle);
      const mapped = map;
      return [
        header,
        ...frames.map((frame) => `    at ${mapped ? mapFrame(String(frame), bundle, mapped) : frame}`),
      ].join('\n');
    } finally {
      formatting = false;
    }
  };
}

function loadMap(bundle: string): SourceMap | null {
  try {
    return new SourceMap(JSON.parse(readFileSync(fileURLToPath(`${bundle}.map`), 'utf8')));
  } catch {
    return null; // no map shipped: frames as they are
  }
}

/** The first line of a stack, as V8 writes it. */
function errorHeader(error: Error): string {
  try {
    return Error.prototype.toString.call(error);
  } catch {
    return '<error>';
  }
}
