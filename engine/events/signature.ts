import { createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks signing (docs/events.md): a secret is `whsec_` and the base64 of its key; a
 * delivery is signed over "<webhook-id>.<webhook-timestamp>.<body>", once per live secret, so a
 * receiver still holding the secret before a rotation verifies for a day.
 */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** The webhook-signature header: `v1,<base64 HMAC-SHA256>` per secret, separated by spaces. */
export function webhookSignature(secrets: string[], id: string, timestamp: number, body: string): string {
  return secrets
    .map((secret) => {
      const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
      return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
    })
    .join(' ');
}
