/**
 * Every command the documents show either runs here, as shown, or says why it cannot (it needs an AWS account). A
 * transcript runs against a local server of its own, started as `npm start` starts (`-c` and all) — but for those
 * that only read the demo data, which share one (`readsOnly`); commands that name the local server's usual ports
 * (3000, and 8000 for its engine) reach this one's, and its ports read back as those. `npx vacancy-admin` is the CLI
 * of this checkout and `npm start` its local server: typed as shown — npm or npx, then tsx on the sources — where a
 * transcript starts with them, as its reader starts (`npx vacancy-admin` by the first such transcript of the run: npx
 * links this checkout into its own cache and reads its whole tree each time, 3.5 s of CPU a command, the same for
 * every argument the CLI then parses); otherwise from the run's bundle of each entry point (`testkit/entry-bundles.ts`:
 * some forty starts, about a fifth of a second of CPU each). `npx cdk` is its CDK.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { entryArguments } from '../../../testkit/entry-bundles';
import {
  type Block,
  blocks,
  documents,
  matchOutput,
  NOT_RUN_REASONS,
  ROOT,
  steps,
  withValues,
} from '../../../testkit/transcripts';

const ALL = documents().flatMap(blocks);
const TRANSCRIPTS = ALL.filter((block) => block.language === 'console');
const SHELL = ALL.filter((block) => ['sh', 'bash', 'shell'].includes(block.language));

/**
 * Where the documents' `/tmp/` is for this run: a folder of its own, so that two runs of the suite on one machine
 * (or a reader's own files there) do not share the sync client's copy or the inbox folder. Read back as `/tmp/`.
 */
const RUN_TMP = `${mkdtempSync(join(tmpdir(), 'transcripts-'))}/`;
const localPaths = (text: string) => text.replaceAll('/tmp/', RUN_TMP);
const documentedPaths = (text: string) => text.replaceAll(RUN_TMP, '/tmp/');
afterAll(() => rmSync(RUN_TMP, { recursive: true, force: true }));

/** A local server as `npm start` runs it, on free ports. */
interface Server {
  readonly banner: string;
  /** Stops it and resolves once it has ended. */
  stop(): Promise<void>;
  /** Turns the documents' ports and `/tmp/` into this server's and this run's, or back. */
  toLocal(text: string): string;
  toDocumented(text: string): string;
}

/**
 * Starts a local server: `npm start -- <options>` itself when a transcript starts one (`typed`), as its reader does —
 * npm, then tsx on the sources — or else from the run's bundle.
 */
async function startServer(options: readonly string[], typed = false): Promise<Server> {
  const args = [...options, '--port', '0', '--dynamodb-port', '0'];
  // Typed, it is a process group of its own (npm, its shell, tsx, the server), as a terminal's foreground job is.
  const child = typed
    ? spawn('npm', ['start', '--', ...args], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'inherit'],
        detached: true,
      })
    : spawn(process.execPath, [...entryArguments('local-server'), ...args], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'inherit'],
      });
  const banner = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (/Ctrl-C to stop.*\n\n/.test(output)) resolve(output);
    });
    child.once('exit', (code) => reject(new Error(`npm start exited (${code}): ${output}`)));
  });
  child.stdout?.resume();
  const port = /Vendor Vacancy API: http:\/\/127\.0\.0\.1:(\d+)/.exec(banner)?.[1] ?? '';
  const dynamodbPort = /DynamoDB \(embedded\): http:\/\/127\.0\.0\.1:(\d+)/.exec(banner)?.[1] ?? '';
  return {
    banner,
    // Typed, with Ctrl-C, which a terminal sends to the whole job; it has ended once the last of the job has.
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      if (typed && child.pid !== undefined) process.kill(-child.pid, 'SIGINT');
      else child.kill('SIGTERM');
      await exited;
      if (typed && child.pid !== undefined) await groupEnded(child.pid);
    },
    // The career page is served on the same port under another name (localhost: another origin).
    toLocal: (text) =>
      localPaths(text)
        .replaceAll('127.0.0.1:3000', `127.0.0.1:${port}`)
        .replaceAll('localhost:3000', `localhost:${port}`)
        .replaceAll('127.0.0.1:8000', `127.0.0.1:${dynamodbPort}`),
    toDocumented: (text) =>
      documentedPaths(text)
        .replaceAll(`127.0.0.1:${port}`, '127.0.0.1:3000')
        .replaceAll(`localhost:${port}`, 'localhost:3000')
        .replaceAll(`127.0.0.1:${dynamodbPort}`, '127.0.0.1:8000'),
  };
}

/** The ops CLI as this run starts it. */
const ADMIN = [process.execPath, ...entryArguments('admin')].join(' ');

/** Whether a transcript of this run has typed `npx vacancy-admin` as shown yet. */
let npxTyped = false;

/**
 * A documented command as this checkout runs it: `npx vacancy-admin` as typed by the first transcript that opens with
 * it (`opens`), as its reader starts — npx, then tsx on the sources — and from the run's bundle otherwise.
 */
function localCommand(command: string, opens = false): string {
  const typed = opens && !npxTyped && /^npx vacancy-admin\b/.test(command);
  if (typed) npxTyped = true;
  return command
    .replace(/^npx vacancy-admin\b/, typed ? 'npx vacancy-admin' : ADMIN)
    .replace(/^npm run admin --/, ADMIN)
    .replace(/^npx cdk\b/, 'node_modules/.bin/cdk')
    .replace(/^npx tsx\b/, 'node --import tsx');
}

/** Runs one command in a shell, as a terminal shows it: standard output and error together, and its status. */
function run(command: string, env: Record<string, string>): Promise<{ printed: string; status: number }> {
  return new Promise((resolve) => {
    execFile(
      'bash',
      ['-c', `${command} 2>&1`],
      {
        cwd: ROOT,
        env: { ...process.env, DYNAMODB_ENDPOINT: '', SERVICE_TIMEZONE: '', ...env },
        timeout: 90_000,
      },
      (error, stdout) => resolve({ printed: stdout, status: error ? Number(error.code) || 1 : 0 }),
    );
  });
}

/** Expects printed text to be what a transcript shows (the diff of the two when it is not). */
function expectShown(expected: string, actual: string, values: Map<string, string>, where: string) {
  if (!matchOutput(expected, actual, values))
    expect(`${where}\n${actual.trimEnd()}`).toBe(`${where}\n${expected}`);
}

/**
 * Whether a transcript only reads the demo data: it starts no server of its own, and each command is a request to the
 * API (the API reads; `POST /mcp` is read-only tools), a reference example that reads it (the sync client, the
 * generated client), the CDK's CLI, a `list` of the ops CLI, or the shell's own (`sleep`, `echo`, `rm -f /tmp/…`).
 * Such transcripts share one server; any other has its own, its data as new.
 */
function readsOnly(block: Block): boolean {
  return steps(block.text).every(({ command }) =>
    [
      /^curl /,
      /^npx tsx examples\/(sync|generated-client)\//,
      /^npx cdk /,
      /^npx vacancy-admin( --endpoint \S+)? \w+ list$/,
      /^sleep \d+$/,
      /^echo /,
      /^rm -f \/tmp\/[^\s&;|]+( && sleep \d+)?$/,
    ].some((pattern) => pattern.test(command)),
  );
}

/** The server the transcripts that only read share: started by the first of them, stopped after the last. */
let shared: Promise<Server> | undefined;
afterAll(async () => {
  if (shared) await (await shared).stop();
});

/** Resolves once no process of a group is left: a terminal's job ends with its last process. */
async function groupEnded(group: number): Promise<void> {
  for (;;) {
    try {
      process.kill(-group, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function runTranscript(block: Block): Promise<void> {
  const [first, ...rest] = steps(block.text);
  if (!first) return;
  const startsServer = /^npm start\b/.test(first.command);
  const options = startsServer
    ? localPaths(first.command)
        .replace(/^npm start( --)?/, '')
        .trim()
        .split(/\s+/)
        .filter(Boolean)
    : [];
  const sharing = readsOnly(block);
  if (sharing) shared ??= startServer([]);
  const server = sharing ? await (shared as Promise<Server>) : await startServer(options, startsServer);
  try {
    const values = new Map<string, string>();
    const env: Record<string, string> = {};
    // `$?`: the status of the previous command, as a shell keeps it.
    let status = 0;
    if (startsServer)
      expectShown(first.output, server.toDocumented(server.banner), values, `$ ${first.command}`);
    for (const step of startsServer ? rest : [first, ...rest]) {
      const command = server.toLocal(withValues(step.command, values)).replaceAll('$?', String(status));
      const exported = /^export ([A-Z_][A-Z0-9_]*)=(\S+)$/.exec(command);
      if (exported) {
        env[exported[1] as string] = exported[2] as string;
        expect(step.output).toBe('');
        continue;
      }
      const result = await run(localCommand(command, step === first), env);
      status = result.status;
      expectShown(step.output, server.toDocumented(result.printed), values, `$ ${step.command}`);
    }
  } finally {
    if (!sharing) await server.stop();
  }
}

describe("the documents' commands", () => {
  it('are there to run, and every shell block not run says why on its first line', () => {
    expect(TRANSCRIPTS.length).toBeGreaterThan(3);
    const unexplained = SHELL.filter(
      (block) => !NOT_RUN_REASONS.some((reason) => block.text.split('\n')[0]?.startsWith(reason)),
    ).map((block) => `${block.file}:${block.line}`);
    expect(unexplained).toEqual([]);
  });

  it.each(TRANSCRIPTS.map((block) => [`${block.file}:${block.line}`, block] as const))(
    '%s runs as shown',
    async (_where, block) => runTranscript(block),
    120_000,
  );
});
