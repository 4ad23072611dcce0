/**
 * Signing a delivery as Standard Webhooks 1.0 says (docs/api.md#webhooks): `v1,` and the base64 HMAC-SHA256 of
 * `<webhook-id>.<webhook-timestamp>.<body>`, keyed with the secret's decoded bytes; one signature per secret,
 * space-separated, while a rotation has two. node:crypto does it in a few lines; the tests verify every delivery
 * with the official `standardwebhooks` library.
 */
import { createHmac } from 'node:crypto';
import { SECRET_PREFIX } from '../../domain/webhook-registry/endpoint';

/** The headers that identify and sign one attempt of an event. */
export function signedHeaders(
  id: string,
  timestampSeconds: number,
  body: string,
  secrets: readonly string[],
): Record<string, string> {
  const signed = `${id}.${timestampSeconds}.${body}`;
  const signatures = secrets.map(
    (secret) =>
      `v1,${createHmac('sha256', Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64'))
        .update(signed)
        .digest('base64')}`,
  );
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': signatures.join(' '),
    'content-type': 'application/json',
  };
}
