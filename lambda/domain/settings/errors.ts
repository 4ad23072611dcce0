/**
 * The settings' error (docs/operating.md#settings): a value that cannot be used, wherever it is read — by the CDK
 * app at synth, or by a function at cold start.
 */

/**
 * A setting that cannot be used: one line that says which, why, and what would do (never a stack trace). Thrown
 * by the settings' checks (`checkSetting`, `notAllowed` in `settings.ts`; `recovery-waits.ts`) and by the
 * tools' reading of `cdk.json` (`lib/settings.ts`, `lib/stack/custom-domain.ts`). The CDK app prints it as
 * `Invalid setting: …` and exits 1; a function whose environment holds one fails its cold start with it
 * (`environment.ts`) rather than answer wrongly.
 */
export class SettingError extends Error {
  override readonly name = 'SettingError';
}
