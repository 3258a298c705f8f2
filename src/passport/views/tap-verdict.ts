import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { Environment } from '../../platform/config/config.ts';

/**
 * What a tap tells the consumer: a first-time genuine signature, a signature seen before, a bad one, or one
 * that cannot be checked (the brand has not configured its chips' keys for live passports).
 */
export type TapVerdict = 'authentic' | 'replayed' | 'forged' | 'unverifiable';

export const TAP_VERDICTS: readonly TapVerdict[] = ['authentic', 'replayed', 'forged', 'unverifiable'];

/** How long the verification page shows a tap's verdict (reloads included); then: tap again. */
export const VERDICT_TTL_SECONDS = 600;

export interface VerdictClaims {
  verdict: TapVerdict;
  environment: Environment;
  tokenId: string;
  /** Unix seconds. */
  checkedAt: number;
  /** A used URL opened again: how many times it has been read in all, and since when (Unix seconds). */
  reopened?: { openings: number; since: number } | undefined;
}

const DEV_SECRET = 'dpp-development-only-data-key';

/**
 * The key that signs verdicts for the verification page, derived from DATA_ENCRYPTION_KEY (a development
 * constant without it). A verdict travels in the page's URL, so it must be unforgeable: otherwise anyone could
 * write a link claiming "authentic" into a counterfeit's tag.
 */
export function verdictKey(dataEncryptionKey: Buffer | undefined): Buffer {
  const secret = dataEncryptionKey ?? createHash('sha256').update(DEV_SECRET).digest();
  return createHmac('sha256', secret).update('tap-verdict/1').digest();
}

const CODES: Record<TapVerdict, string> = { authentic: 'a', replayed: 'r', forged: 'f', unverifiable: 'u' };
const VERDICT_OF = Object.fromEntries(Object.entries(CODES).map(([v, c]) => [c, v])) as Record<
  string,
  TapVerdict
>;

function mac(key: Buffer, payload: string): Buffer {
  return createHmac('sha256', key).update(payload).digest().subarray(0, 16);
}

/** `<payload>.<mac>`, both base64url: what the verification page's `tap` parameter carries. */
export function signVerdict(key: Buffer, claims: VerdictClaims): string {
  const payload = Buffer.from(
    JSON.stringify([
      CODES[claims.verdict],
      claims.environment,
      claims.tokenId,
      claims.checkedAt,
      ...(claims.reopened ? [claims.reopened.openings, claims.reopened.since] : []),
    ]),
  ).toString('base64url');
  return `${payload}.${mac(key, payload).toString('base64url')}`;
}

export type ReadVerdict = { ok: true; claims: VerdictClaims } | { ok: false; reason: 'invalid' | 'expired' };

/**
 * The verdict a `tap` parameter carries, if its MAC is ours, it names this passport and it is recent. An
 * altered, foreign or unreadable token is `invalid`; an old one `expired`.
 */
export function readVerdict(
  key: Buffer,
  token: string,
  expected: { environment: Environment; tokenId: string; now: Date },
): ReadVerdict {
  const [payload = '', signature = ''] = token.split('.');
  const given = Buffer.from(signature, 'base64url');
  const wanted = mac(key, payload);
  if (given.length !== wanted.length || !timingSafeEqual(given, wanted))
    return { ok: false, reason: 'invalid' };
  let fields: unknown;
  try {
    fields = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, reason: 'invalid' };
  }
  if (!Array.isArray(fields) || (fields.length !== 4 && fields.length !== 6)) {
    return { ok: false, reason: 'invalid' };
  }
  const [code, environment, tokenId, checkedAt, openings, since] = fields as unknown[];
  const verdict = VERDICT_OF[String(code)];
  if (!verdict || environment !== expected.environment || tokenId !== expected.tokenId) {
    return { ok: false, reason: 'invalid' };
  }
  if (typeof checkedAt !== 'number') return { ok: false, reason: 'invalid' };
  const age = expected.now.getTime() / 1000 - checkedAt;
  if (age > VERDICT_TTL_SECONDS || age < -60) return { ok: false, reason: 'expired' };
  const reopened =
    typeof openings === 'number' && typeof since === 'number' ? { reopened: { openings, since } } : {};
  return {
    ok: true,
    claims: { verdict, environment: expected.environment, tokenId: expected.tokenId, checkedAt, ...reopened },
  };
}
