import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { isRole, type Role } from './roles.ts';

/**
 * Browser sessions of the web console. The browser holds only an opaque secret in an HttpOnly cookie; the
 * server keeps the SHA-256 hash of it with the session's clocks, so a session can be ended at once (sign-out,
 * sign-out everywhere) and every request sees it.
 *
 * - The secret is short-lived: after ROTATE_SECONDS the next request gets a new one (Set-Cookie). The one it
 *   replaces is still accepted for PREVIOUS_GRACE_SECONDS (requests already in flight, other tabs); presented
 *   later, it means two parties hold the session, so the session is revoked.
 * - A session ends after IDLE_SECONDS without a request, and ABSOLUTE_SECONDS after sign-in in any case.
 */
export const ROTATE_SECONDS = 15 * 60;
export const PREVIOUS_GRACE_SECONDS = 60;
export const IDLE_SECONDS = 30 * 60;
export const ABSOLUTE_SECONDS = 12 * 60 * 60;
const SECRET_PREFIX = 'dpp_sess_';

export interface SessionUser {
  sessionId: string;
  userId: number;
  email: string;
  companyId: string;
  companyName: string;
  role: Role;
}

export type SessionCheck =
  | { ok: true; user: SessionUser; renewedSecret?: string }
  | { ok: false; reason: 'unknown' | 'ended' | 'reused' };

const hashOf = (secret: string) => createHash('sha256').update(secret).digest();
const newSecret = () => `${SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;

/** A new session for a user who just proved who they are; the secret exists in clear only in the cookie. */
export async function createConsoleSession(
  em: EntityManager,
  userId: number,
  now = new Date(),
): Promise<{ sessionId: string; secret: string }> {
  const sessionId = randomUUID();
  const secret = newSecret();
  await em.execute(
    `insert into console_sessions (id, user_id, secret_hash, rotated_at, last_seen_at, expires_at, created_at)
     values (?, ?, ?, ?, ?, ?, ?)`,
    [sessionId, userId, hashOf(secret), now, now, new Date(now.getTime() + ABSOLUTE_SECONDS * 1000), now],
  );
  return { sessionId, secret };
}

interface SessionRow {
  id: string;
  user_id: number;
  email: string;
  company_id: string;
  company_name: string;
  role: string;
  current: boolean;
  rotated_at: Date;
  last_seen_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
}

/** The session a cookie's secret names, renewing the secret when it is due (see the module comment). */
export async function checkConsoleSession(
  em: EntityManager,
  secret: string,
  now = new Date(),
): Promise<SessionCheck> {
  if (!secret.startsWith(SECRET_PREFIX) || secret.length > 100) return { ok: false, reason: 'unknown' };
  const hash = hashOf(secret);
  const [row] = await em.execute<SessionRow[]>(
    `select s.id, s.user_id, u.email, u.company_id, c.name as company_name, u.role, s.secret_hash = ? as current,
            s.rotated_at, s.last_seen_at, s.expires_at, s.revoked_at
     from console_sessions s join users u on u.id = s.user_id join companies c on c.id = u.company_id
     where s.secret_hash = ? or s.previous_secret_hash = ?`,
    [hash, hash, hash],
  );
  if (!row) return { ok: false, reason: 'unknown' };
  const at = now.getTime();
  if (
    row.revoked_at !== null ||
    new Date(row.expires_at).getTime() <= at ||
    new Date(row.last_seen_at).getTime() + IDLE_SECONDS * 1000 <= at
  ) {
    return { ok: false, reason: 'ended' };
  }
  const rotatedAt = new Date(row.rotated_at).getTime();
  if (!row.current && rotatedAt + PREVIOUS_GRACE_SECONDS * 1000 < at) {
    await revokeConsoleSession(em, row.id, now);
    return { ok: false, reason: 'reused' };
  }
  if (!isRole(row.role)) return { ok: false, reason: 'ended' };
  const user: SessionUser = {
    sessionId: row.id,
    userId: row.user_id,
    email: row.email,
    companyId: row.company_id,
    companyName: row.company_name,
    role: row.role,
  };
  if (row.current && rotatedAt + ROTATE_SECONDS * 1000 <= at) {
    const renewed = newSecret();
    // Only the request that still sees the current secret rotates it; a concurrent one finds it previous.
    const rotated = await em.execute<{ id: string }[]>(
      `update console_sessions set previous_secret_hash = secret_hash, secret_hash = ?, rotated_at = ?,
         last_seen_at = ? where id = ? and secret_hash = ? returning id`,
      [hashOf(renewed), now, now, row.id, hash],
    );
    if (rotated.length === 1) return { ok: true, user, renewedSecret: renewed };
    return { ok: true, user };
  }
  // last_seen_at moves at most once a minute: an idle clock, not a write per request.
  if (new Date(row.last_seen_at).getTime() + 60_000 <= at) {
    await em.execute('update console_sessions set last_seen_at = ? where id = ?', [now, row.id]);
  }
  return { ok: true, user };
}

/** Ends one session (sign-out). */
export async function revokeConsoleSession(em: EntityManager, sessionId: string, now = new Date()) {
  await em.execute('update console_sessions set revoked_at = ? where id = ? and revoked_at is null', [
    now,
    sessionId,
  ]);
}

/** Ends every session of the user (sign-out everywhere); returns how many were open. */
export async function revokeUserConsoleSessions(
  em: EntityManager,
  userId: number,
  now = new Date(),
): Promise<number> {
  const ended = await em.execute<{ id: string }[]>(
    'update console_sessions set revoked_at = ? where user_id = ? and revoked_at is null returning id',
    [now, userId],
  );
  return ended.length;
}
