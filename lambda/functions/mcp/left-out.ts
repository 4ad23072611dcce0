/**
 * What the MCP function's bundle carries in place of what the SDK imports but this server never runs
 * (docs/design.md#cold-start): the SDK's default JSON Schema validator — Ajv and its formats, bundled inside the SDK's
 * own files (150 KB) — which checks an elicitation's answer: this server elicits nothing, and gives the SDK a
 * validator of its own (`server.ts`). The bundler resolves the SDK's runtime shims (`@modelcontextprotocol/server/_shims`)
 * here (`lib/stack/bundling.ts`). Called at all, it says what was left out rather than misbehave.
 */
import process from 'node:process';

/** The SDK's default validator, left out: constructing it says so. */
export class DefaultJsonSchemaValidator {
  constructor() {
    throw new Error("left out of the MCP function's bundle: this server elicits nothing");
  }
}

export { process };
