/**
 * The service's defaults, written once. The CDK settings, the functions' configuration, the local server and
 * the ops CLI all start from these values; a deployment overrides them through its settings
 * (README "Deploy").
 */
export const SERVICE_DEFAULTS = {
  /** Locale when neither `lang` nor `Accept-Language` decides. */
  locale: 'az',
  /** IANA zone of `created_at` and of "today" for deadlines. */
  timeZone: 'Asia/Baku',
  /** `per_page` when the request gives none. */
  perPage: 15,
} as const;
