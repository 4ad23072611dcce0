/**
 * The API's routes (docs/api.md), written once for the functions, the stack, the local gateway and the tools. The
 * listing's route serves the active listing and, with `updated_since`, the sync.
 */

/** `GET /vendor/vacancies`: the vendor's active vacancies, or what changed (docs/api.md#incremental-sync). */
export const LISTING_PATH = '/vendor/vacancies';
