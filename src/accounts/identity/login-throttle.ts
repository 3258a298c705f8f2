import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Who a login attempt is counted against: the address tried (known or not, so a delay never tells which
 * addresses have accounts), the client address it came from, or, instead of both, the known device it came
 * from (a client that logged in to this account before: its failures are its own).
 */
export type ThrottleKey =
  | { kind: 'account'; email: string }
  | { kind: 'client'; address: string }
  | { kind: 'device'; tokenHash: string };

/** Failures in a row that cost nothing (typos); a client counts every address it tries, hence more. */
const FREE_FAILURES: Record<ThrottleKey['kind'], number> = { account: 5, device: 5, client: 20 };
/** The delay doubles with each further failure, from one second up to the cap. */
export const MAX_DELAY_SECONDS = 30;
/** A key without a failure for this long starts again from nothing. */
const FORGET_MINUTES = 15;

/** Seconds to wait after the `failures`-th failure in a row of a key: 0 while free, then 1, 2, 4, … ≤ 30. */
export function delayAfter(kind: ThrottleKey['kind'], failures: number): number {
  const free = FREE_FAILURES[kind];
  if (failures < free) return 0;
  return Math.min(MAX_DELAY_SECONDS, 2 ** (failures - free));
}

const stored = (key: ThrottleKey) =>
  createHash('sha256')
    .update(
      key.kind === 'account'
        ? `account:${key.email}`
        : key.kind === 'client'
          ? `client:${key.address}`
          : `device:${key.tokenHash}`,
    )
    .digest('hex');

interface Row {
  key: string;
  blocked: boolean;
}

class Blocked extends Error {}

/**
 * May an attempt be checked now? No while any of its keys waits out a delay; such attempts are not counted,
 * so hammering does not lengthen the wait. Otherwise the attempt is counted as a failure in advance (and its
 * delay, if it earns one, starts now), so attempts sent in parallel each take their turn and the ones past the
 * free failures wait; settleSuccess takes it back when the password was right.
 */
export async function claimAttempt(em: EntityManager, keys: ThrottleKey[]): Promise<boolean> {
  // One order for every transaction that locks these rows (no deadlock between two attempts).
  const ordered = keys
    .map((key) => ({ key, stored: stored(key) }))
    .sort((a, b) => (a.stored < b.stored ? -1 : 1));
  const allowed = await em
    .fork()
    .transactional(async (tx) => {
      const rows = await tx.execute<Row[]>(
        `select key, coalesce(blocked_until > now(), false) as blocked from login_throttle
         where key in (?) order by key collate "C" for update`,
        [ordered.map((k) => k.stored)],
      );
      if (rows.some((row) => row.blocked)) return false;
      for (const { key, stored: id } of ordered) {
        // A row another attempt created meanwhile may have started a delay: then this attempt waits too.
        const [row] = await tx.execute<{ failures: number }[]>(
          `insert into login_throttle as t (key, failures, last_failure_at) values (?, 1, now())
           on conflict (key) do update set
             failures = case when t.last_failure_at < now() - make_interval(mins => ?) then 1 else t.failures + 1 end,
             last_failure_at = now()
           where t.blocked_until is null or t.blocked_until <= now()
           returning failures`,
          [id, FORGET_MINUTES],
        );
        if (!row) throw new Blocked();
        const delay = delayAfter(key.kind, row.failures);
        if (delay > 0) {
          await tx.execute(
            'update login_throttle set blocked_until = now() + make_interval(secs => ?) where key = ?',
            [delay, id],
          );
        }
      }
      return true;
    })
    .catch((error: unknown) => {
      if (error instanceof Blocked) return false;
      throw error;
    });
  // Outside that transaction and skipping rows in use, so it never waits on (or deadlocks with) an attempt.
  await em.execute(
    `delete from login_throttle where key in (
       select key from login_throttle where last_failure_at < now() - make_interval(mins => ?)
       for update skip locked)`,
    [FORGET_MINUTES],
  );
  return allowed;
}

/**
 * The right password: the address's (or the device's) failures start again from nothing; the client's
 * count only loses this attempt (logging in to one's own account buys no guesses at others), and the delay
 * it earned in advance is lifted (the one before it was over, or the attempt would not have been checked).
 */
export async function settleSuccess(em: EntityManager, keys: ThrottleKey[]): Promise<void> {
  const cleared = keys.filter((key) => key.kind !== 'client').map(stored);
  const client = keys.filter((key) => key.kind === 'client').map(stored);
  if (cleared.length > 0) await em.execute('delete from login_throttle where key in (?)', [cleared]);
  if (client.length > 0) {
    await em.execute(
      'update login_throttle set failures = greatest(failures - 1, 0), blocked_until = null where key in (?)',
      [client],
    );
  }
}

/** A password reset: the address's failures start again from nothing. */
export async function clearAddress(em: EntityManager, email: string): Promise<void> {
  await em.execute('delete from login_throttle where key = ?', [stored({ kind: 'account', email })]);
}
