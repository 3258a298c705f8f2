import type { WebhookEndpoint } from '../platform/db/entities/index.ts';
import type { SecretBox } from '../platform/secret-box.ts';

export const DEFAULT_ROTATION_OVERLAP_SECONDS = 86_400;
export const MAX_ROTATION_OVERLAP_SECONDS = 604_800;

/**
 * The sealing context names the endpoint only (not "current" or "previous"), so a rotation moves the
 * sealed bytes from `secret` to `previousSecret` without opening them.
 */
function context(endpointId: string): string {
  return `webhook-secret:${endpointId}`;
}

export function sealWebhookSecret(box: SecretBox, endpointId: string, secret: string): Buffer {
  return box.seal(Buffer.from(secret, 'utf8'), context(endpointId));
}

/** Opened secrets kept per key (a few hundred bytes each): the oldest goes first once this many are kept. */
const MAX_OPENED = 1_000;
const opened = new WeakMap<SecretBox, Map<string, string>>();

/**
 * Opening a sealed secret (AES-GCM with a key prepared anew each time) cost as much CPU as signing a delivery,
 * and every attempt of every delivery opens its endpoint's: the secret opened once is kept per key, by the
 * endpoint and its exact sealed bytes (a rotation seals new bytes, so it is never served stale).
 */
function open(box: SecretBox, endpointId: string, sealed: Buffer | Uint8Array): string {
  let cache = opened.get(box);
  if (!cache) {
    cache = new Map();
    opened.set(box, cache);
  }
  const bytes = Buffer.from(sealed);
  const key = `${endpointId} ${bytes.toString('base64')}`;
  let secret = cache.get(key);
  if (secret === undefined) {
    secret = box.open(bytes, context(endpointId)).toString('utf8');
    if (cache.size >= MAX_OPENED) cache.delete(cache.keys().next().value!);
    cache.set(key, secret);
  }
  return secret;
}

type SecretColumns = Pick<WebhookEndpoint, 'id' | 'secret' | 'previousSecret' | 'previousSecretExpiresAt'>;

/** Whether the endpoint is inside a rotation overlap at `now` (the previous secret still signs). */
export function inRotationOverlap(endpoint: SecretColumns, now: Date = new Date()): boolean {
  return (
    endpoint.previousSecret !== null &&
    endpoint.previousSecret !== undefined &&
    endpoint.previousSecretExpiresAt !== null &&
    endpoint.previousSecretExpiresAt !== undefined &&
    endpoint.previousSecretExpiresAt.getTime() > now.getTime()
  );
}

/**
 * The secrets a delivery attempt at `now` signs with, newest first: the current one, plus the previous
 * one while its overlap lasts. Pass the result to `deliveryHeaders` (signing.ts).
 */
export function activeSigningSecrets(
  box: SecretBox,
  endpoint: SecretColumns,
  now: Date = new Date(),
): string[] {
  const secrets = [open(box, endpoint.id, endpoint.secret)];
  if (inRotationOverlap(endpoint, now)) secrets.push(open(box, endpoint.id, endpoint.previousSecret!));
  return secrets;
}
