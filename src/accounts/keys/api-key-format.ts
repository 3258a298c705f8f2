import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Environment } from '../../platform/config/config.ts';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 40; // ≈ 238 bits
const LOOKUP_LENGTH = 12;
const DISPLAY_LENGTH = 8;
const KEY_PATTERN = new RegExp(`^sk_(live|test)_([0-9A-Za-z]{${RANDOM_LENGTH}})$`);

export interface GeneratedApiKey {
  /** The full key; shown to the user once, never stored. */
  key: string;
  /** Shown in listings so users can tell keys apart, e.g. `sk_test_4f9KQ2ab`. */
  prefix: string;
  lookupId: string;
  secretHash: string;
}

/** `sk_live_…` / `sk_test_…` followed by 40 base62 characters from a CSPRNG. */
export function generateApiKey(environment: Environment): GeneratedApiKey {
  const random = randomBase62(RANDOM_LENGTH);
  const key = `sk_${environment}_${random}`;
  return {
    key,
    prefix: `sk_${environment}_${random.slice(0, DISPLAY_LENGTH)}`,
    lookupId: random.slice(0, LOOKUP_LENGTH),
    secretHash: hashApiKey(key),
  };
}

export function parseApiKey(key: string): { environment: Environment; lookupId: string } | undefined {
  const match = KEY_PATTERN.exec(key);
  if (!match) return undefined;
  return { environment: match[1] as Environment, lookupId: match[2]!.slice(0, LOOKUP_LENGTH) };
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** Constant-time comparison of a presented key against a stored hash. */
export function apiKeyMatches(key: string, storedHash: string): boolean {
  const presented = Buffer.from(hashApiKey(key), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}

function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}
