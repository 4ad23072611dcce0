/**
 * libxml2's `xmllint` (the WebAssembly build `xmllint-wasm` publishes) in a worker thread that lives as long as the
 * test file that started it (`testkit/xml.ts`): the module is compiled once, and each request runs `xmllint` once in
 * a new instance with memory of its own — as `xmllint-wasm`'s `validateXML` does, which starts a worker and compiles
 * the module for every call (about 0.2 s of CPU, a few hundred times a run). Plain JavaScript: a worker runs outside
 * Jest's transform.
 *
 * A request: `{ id, files: [{ fileName, contents }], args, initialMemory, maxMemory }` (memory in 64 KiB pages); the
 * answer: `{ id, exitCode, stdout, stderr }`.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parentPort } from 'node:worker_threads';

const require = createRequire(import.meta.url);
const glue = require.resolve('xmllint-wasm/xmllint-node.js');
// The package's Emscripten module factory. Loading it also sets up the package's own worker listener, which answers
// only messages tagged with the package's key; this file's are not.
const createXmllint = require(glue);
const compiled = new WebAssembly.Module(readFileSync(new URL('xmllint.wasm', `file://${glue}`)));

/** Runs `xmllint` once: its exit code and what it printed. */
function runXmllint({ files, args, initialMemory, maxMemory }) {
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    let ended = false;
    const end = (exitCode) => {
      if (ended) return;
      ended = true;
      resolve({ exitCode, stdout, stderr });
    };
    createXmllint({
      inputFiles: files,
      arguments: args,
      print: (text) => {
        stdout += `${text}\n`;
      },
      printErr: (text) => {
        stderr += `${text}\n`;
      },
      onExit: end,
      onAbort: (reason) => {
        stderr += `WASM Abort: ${reason}\n`;
        end(-1);
      },
      wasmMemory: new WebAssembly.Memory({ initial: initialMemory, maximum: maxMemory }),
      instantiateWasm: (imports, receive) => {
        WebAssembly.instantiate(compiled, imports).then((instance) => receive(instance, compiled));
        return {};
      },
    }).catch(() => end(-1));
  });
}

parentPort.on('message', async (request) => {
  if (typeof request?.id !== 'number') return;
  parentPort.postMessage({ id: request.id, ...(await runXmllint(request)) });
});
