/**
 * What the MCP function's bundle carries in place of three libraries the SDK imports but this server never runs
 * (docs/design.md#cold-start): Ajv and its formats, which check an elicitation's answer — this server elicits
 * nothing, and gives the SDK a validator of its own (`server.ts`) — and `zod-to-json-schema`, which turns Zod 3
 * schemas into JSON Schema — the tools' schemas are Zod 4's, which converts its own. The bundler resolves `ajv`,
 * `ajv-formats` and `zod-to-json-schema` here (`lib/stack/bundling.ts`): 150 KB and about 14 ms of a cold init
 * less. Called at all, it says what was left out rather than misbehave.
 */
function leftOut(): never {
  throw new Error("left out of the MCP function's bundle: this server neither elicits nor has Zod 3 schemas");
}

export default leftOut;
export const zodToJsonSchema = leftOut;
