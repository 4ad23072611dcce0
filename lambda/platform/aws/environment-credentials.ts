/**
 * The credential provider of the deployed functions: the execution role's credentials, which Lambda puts in the
 * environment (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`) before the function starts.
 *
 * The bundler puts this module in place of the SDK's default chain, `@aws-sdk/credential-provider-node`
 * (`ESBUILD_SETTINGS.alias` in lib/stack/bundling.ts). That chain tries the environment first, and on Lambda
 * stops there; its other links — profiles, SSO, login, processes, web identity, instance metadata — read files,
 * tokens and endpoints a function does not have, and brought about 130 KB into every bundle, which each cold
 * start loads (docs/design.md#runtime). The local server, the tests and the ops CLI run from source and keep the
 * whole chain.
 *
 * Without credentials in the environment the provider throws the SDK's `CredentialsProviderError`, which
 * `awsFailure` names `no-credentials`, as it would the whole chain's.
 */
import { fromEnv } from '@aws-sdk/credential-provider-env';

/** The SDK's `defaultProvider`, reduced to the environment: same name and input, as the SDK clients call it. */
export const defaultProvider = (init: Parameters<typeof fromEnv>[0] = {}) => fromEnv(init);
