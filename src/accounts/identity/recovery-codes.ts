import { createHash, randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError } from '../../platform/errors.ts';
import { assertSsoNotRequired } from '../sso/sso.ts';
import { normaliseEmail } from './email.ts';
import { claimAttempt, settleSuccess, type ThrottleKey } from './login-throttle.ts';

/** How many codes a set holds. */
export const RECOVERY_CODE_COUNT = 10;
/** Crockford's base32: no I, L, O or U, so a code read off paper is not misread. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** 16 characters of 5 bits each (80 random bits), shown as four groups: `7KQ2-9XMV-…`. */
function newCode(): string {
  const bytes = randomBytes(16);
  const chars = [...bytes].map((byte) => ALPHABET[byte & 31]);
  return [0, 4, 8, 12].map((at) => chars.slice(at, at + 4).join('')).join('-');
}

/** What is hashed: the code as typed, without separators or case, with the look-alikes read as base32 does. */
function canonical(code: string): string {
  return code.toUpperCase().replace(/[\s-]/g, '').replace(/[IL]/g, '1').replace(/O/g, '0');
}

const hashOf = (code: string) =>
  createHash('sha256')
    .update(`recovery:${canonical(code)}`)
    .digest();

/** A new set of codes for the user (the old set stops working); only their hashes are kept. */
export async function issueRecoveryCodes(em: EntityManager, userId: number): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
  await em.transactional(async (tx) => {
    await tx.execute('delete from recovery_codes where user_id = ?', [userId]);
    for (const code of codes) {
      await tx.execute('insert into recovery_codes (code_hash, user_id) values (?, ?)', [
        hashOf(code),
        userId,
      ]);
    }
  });
  return codes;
}

/** Codes of the user's set not used yet (0 when they never had a set). */
export async function remainingRecoveryCodes(em: EntityManager, userId: number): Promise<number> {
  const [row] = await em.execute<{ n: number }[]>(
    'select count(*)::int as n from recovery_codes where user_id = ? and used_at is null',
    [userId],
  );
  return row?.n ?? 0;
}

/** The same answer for an unknown address, a wrong or used code and an attempt that must wait. */
const refused = () =>
  new DomainError(
    'unauthenticated',
    'recovery_code_invalid',
    'This recovery code is wrong or already used (each works once), or there were too many attempts: check it, or try again in half a minute.',
  );

/**
 * Sign-in with one recovery code: the code is used up whatever follows. Throttled as password login is (per
 * address and per client), so codes cannot be guessed at speed either.
 */
export async function redeemRecoveryCode(
  em: EntityManager,
  attempt: { email: string; code: string; client: string },
): Promise<{ userId: number; remaining: number }> {
  const email = normaliseEmail(attempt.email);
  const keys: ThrottleKey[] = [
    { kind: 'account', email },
    { kind: 'client', address: attempt.client },
  ];
  if (!(await claimAttempt(em, keys))) throw refused();
  const [used] = await em.execute<{ user_id: number }[]>(
    `update recovery_codes r set used_at = now() from users u
     where r.code_hash = ? and r.used_at is null and u.id = r.user_id and u.email = ?
     returning r.user_id`,
    [hashOf(attempt.code), email],
  );
  if (!used) throw refused();
  await settleSuccess(em, keys);
  await assertSsoNotRequired(em, email);
  return { userId: used.user_id, remaining: await remainingRecoveryCodes(em, used.user_id) };
}
