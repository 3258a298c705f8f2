import { createHash, randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Known devices (OWASP's "device cookie"): a client that logged in to an account gets a token, and its later
 * attempts on that account are throttled on their own, not with everyone else's, so nobody else's failures
 * delay it. Only the SHA-256 of a token is stored.
 */
export const KNOWN_DEVICE_DAYS = 180;
/** Clients that keep no cookie get a new token at every login; only the newest ones are kept. */
const DEVICES_PER_USER = 20;

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

export async function issueKnownDevice(em: EntityManager, userId: number): Promise<string> {
  const token = `dpp_dev_${randomBytes(32).toString('base64url')}`;
  await em.execute('insert into known_devices (token_hash, user_id) values (?, ?)', [hashOf(token), userId]);
  await em.execute(
    `delete from known_devices where user_id = ? and token_hash not in (
       select token_hash from known_devices where user_id = ? order by last_used_at desc limit ?)`,
    [userId, userId, DEVICES_PER_USER],
  );
  return token;
}

/**
 * The hash of `token` when it is a device of `userId` used within the last 180 days (null otherwise);
 * its use is recorded.
 */
export async function knownDevice(em: EntityManager, token: string, userId: number): Promise<string | null> {
  const rows = await em.execute<{ token_hash: string }[]>(
    `update known_devices set last_used_at = now()
     where token_hash = ? and user_id = ? and last_used_at > now() - make_interval(days => ?)
     returning token_hash`,
    [hashOf(token), userId, KNOWN_DEVICE_DAYS],
  );
  return rows[0]?.token_hash ?? null;
}
