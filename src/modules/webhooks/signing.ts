/**
 * The Standard Webhooks scheme (standardwebhooks.com): secrets `whsec_` + base64 of random
 * bytes, and the webhook-id / webhook-timestamp / webhook-signature headers, signed by the
 * scheme's own library so receivers verify with theirs in any language. During a secret's
 * rotation both secrets sign (the scheme's space-separated signature list), so a receiver
 * holding either one accepts the message.
 */
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

export function newSigningSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

export function signedHeaders(secrets: string[], messageId: string, at: Date, body: string): Record<string, string> {
  const signatures = secrets.map((secret) => new Webhook(secret).sign(messageId, at, body));
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signatures.join(' '),
  };
}
