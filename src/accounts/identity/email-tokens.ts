import { createHash, randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';

/** A confirmation link works once, for 24 hours. */
const CONFIRM_HOURS = 24;

const hashOf = (token: string) => createHash('sha256').update(token).digest();

/** A new single-use token for the user; only its hash is stored. */
export async function issueConfirmationToken(em: EntityManager, userId: number): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await em.execute(
    `insert into user_email_tokens (token_hash, user_id, purpose, expires_at)
     values (?, ?, 'confirm_email', now() + interval '${CONFIRM_HOURS} hours')`,
    [hashOf(token), userId],
  );
  return token;
}

/** Uses the token (once) and confirms its user's address; the user id, or null for an unknown, used or expired one. */
export async function consumeConfirmationToken(em: EntityManager, token: string): Promise<number | null> {
  const rows = await em.execute<{ user_id: number }[]>(
    `with used as (
       update user_email_tokens set used_at = now()
       where token_hash = ? and purpose = 'confirm_email' and used_at is null and expires_at > now()
       returning user_id
     )
     update users set email_confirmed_at = coalesce(email_confirmed_at, now())
     where id in (select user_id from used)
     returning id as user_id`,
    [hashOf(token)],
  );
  return rows[0]?.user_id ?? null;
}

/** A password-reset link works once, for one hour. */
const RESET_MINUTES = 60;

export async function issueResetToken(em: EntityManager, userId: number): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await em.execute(
    `insert into user_email_tokens (token_hash, user_id, purpose, expires_at)
     values (?, ?, 'reset_password', now() + interval '${RESET_MINUTES} minutes')`,
    [hashOf(token), userId],
  );
  return token;
}

/**
 * Uses a reset token (once) to set a new password hash; it also confirms the address (the mail reached its
 * owner). The user, or null for an unknown, used or expired token.
 */
export async function consumeResetToken(
  em: EntityManager,
  token: string,
  passwordHash: string,
): Promise<{ id: number; email: string } | null> {
  const rows = await em.execute<{ id: number; email: string }[]>(
    `with used as (
       update user_email_tokens set used_at = now()
       where token_hash = ? and purpose = 'reset_password' and used_at is null and expires_at > now()
       returning user_id
     )
     update users set password_hash = ?, email_confirmed_at = coalesce(email_confirmed_at, now())
     where id in (select user_id from used)
     returning id, email`,
    [hashOf(token), passwordHash],
  );
  return rows[0] ?? null;
}
