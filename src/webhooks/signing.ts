import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Webhook signing, pure functions shared by the API (secrets), the delivery activity (signing) and
 * receivers' documentation (verification).
 *
 * Two schemes are sent on every delivery, each keyed differently on purpose:
 * - `service-signature` (the spec's header): lowercase hex HMAC-SHA256 of the exact raw body, keyed with
 *   the UTF-8 bytes of the whole secret string as the receiver got it (`whsec_…` included).
 * - Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`): `v1,` + base64 HMAC-SHA256
 *   of `{id}.{timestamp}.{body}`, keyed with the base64-decoded part after `whsec_`, exactly as the
 *   Standard Webhooks libraries derive it, so they verify our deliveries unchanged.
 * During a secret rotation's overlap `service-signature` stays one value, as the spec's receivers compare it
 * for equality: it is signed with the newest secret, the one the rotation just handed out, so a receiver
 * that installs it at once verifies every delivery from then on. `webhook-signature`, made for several
 * signatures, carries one per active secret, newest first: its receivers may switch at any moment of the
 * overlap.
 */

export const SECRET_PREFIX = 'whsec_';
export const SIGNATURE_HEADER = 'service-signature';
export const WEBHOOK_USER_AGENT = 'dpp-webhooks/1';
/** Standard Webhooks' recommended tolerance for `webhook-timestamp`. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** A fresh signing secret: `whsec_` + 32 random bytes in base64. */
export function generateWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

export function isWebhookSecret(value: string): boolean {
  return /^whsec_[A-Za-z0-9+/]{43}=$/.test(value);
}

export interface EnvelopeSource {
  eventId: string;
  eventType: string;
  occurredAt: Date;
  data: Record<string, unknown>;
}

/** The exact bytes POSTed: `{"eventId","eventType","timestamp","data"}` in that order, timestamp ISO 8601 UTC. */
export function envelopeBody(event: EnvelopeSource): string {
  return JSON.stringify({
    eventId: event.eventId,
    eventType: event.eventType,
    timestamp: event.occurredAt.toISOString(),
    data: event.data,
  });
}

/** The spec's `service-signature` value for one secret: hex HMAC-SHA256 of the raw body. */
export function serviceSignature(secret: string, body: string | Buffer): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest('hex');
}

/** The key Standard Webhooks derives from a `whsec_` secret. */
function standardKey(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  return Buffer.from(encoded, 'base64');
}

/** One `v1,<base64>` entry of `webhook-signature`. */
export function standardSignature(
  secret: string,
  webhookId: string,
  timestampSeconds: number,
  body: string | Buffer,
): string {
  const mac = createHmac('sha256', standardKey(secret))
    .update(`${webhookId}.${timestampSeconds}.`)
    .update(body)
    .digest('base64');
  return `v1,${mac}`;
}

/**
 * Every header of one delivery attempt. `secrets` are the endpoint's active secrets, newest first
 * (two during a rotation overlap; the first, newest, signs `service-signature`); `timestampSeconds` is the
 * time of this attempt.
 */
export function deliveryHeaders(input: {
  eventId: string;
  body: string | Buffer;
  secrets: readonly string[];
  timestampSeconds: number;
}): Record<string, string> {
  if (input.secrets.length === 0) throw new Error('a webhook delivery needs at least one secret');
  return {
    'content-type': 'application/json',
    'user-agent': WEBHOOK_USER_AGENT,
    [SIGNATURE_HEADER]: serviceSignature(input.secrets[0]!, input.body),
    'webhook-id': input.eventId,
    'webhook-timestamp': String(input.timestampSeconds),
    'webhook-signature': input.secrets
      .map((s) => standardSignature(s, input.eventId, input.timestampSeconds, input.body))
      .join(' '),
  };
}

function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Receiver side of `service-signature`, as the spec says: the hex HMAC of the body equals the header. */
export function verifyServiceSignature(header: string, body: string | Buffer, secret: string): boolean {
  return constantTimeEqual(header.trim().toLowerCase(), serviceSignature(secret, body));
}

/** Receiver side of the Standard Webhooks headers, including the timestamp tolerance. */
export function verifyStandardSignature(
  headers: { id: string; timestamp: string; signature: string },
  body: string | Buffer,
  secret: string,
  options: { nowSeconds?: number; toleranceSeconds?: number } = {},
): boolean {
  const timestamp = Number(headers.timestamp);
  if (!/^\d+$/.test(headers.timestamp) || !Number.isSafeInteger(timestamp)) return false;
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - timestamp) > (options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS)) return false;
  const expected = standardSignature(secret, headers.id, timestamp, body);
  let found = false;
  for (const candidate of headers.signature.split(' ')) {
    if (constantTimeEqual(candidate, expected)) found = true;
  }
  return found;
}
