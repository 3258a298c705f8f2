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
  failures: number;
  blocked: boolean;
}

/**
 * May an attempt be checked now? No while any of its keys waits out a delay (such attempts are not counted:
 * hammering does not lengthen the wait). Otherwise the attempt takes the key's turn: where one more failure
 * would earn a delay, that delay starts now, so attempts sent in parallel are not all checked.
 */
export async function claimAttempt(em: EntityManager, keys: ThrottleKey[]): Promise<boolean> {
  const byHash = new Map(keys.map((key) => [stored(key), key]));
  return em.fork().transactional(async (tx) => {
    const rows = await tx.execute<Row[]>(
      `select key, case when last_failure_at < now() - make_interval(mins => ?) then 0 else failures end as failures,
              coalesce(blocked_until > now(), false) as blocked
       from login_throttle where key in (?) order by key for update`,
      [FORGET_MINUTES, [...byHash.keys()]],
    );
    if (rows.some((row) => row.blocked)) return false;
    for (const row of rows) {
      const delay = delayAfter(byHash.get(row.key)!.kind, row.failures + 1);
      if (delay > 0) {
        await tx.execute(
          'update login_throttle set blocked_until = now() + make_interval(secs => ?) where key = ?',
          [delay, row.key],
        );
      }
    }
    return true;
  });
}

/** One more failure for each key; its delay runs from now. Keys forgotten long ago are cleared out. */
export async function recordFailure(em: EntityManager, keys: ThrottleKey[]): Promise<void> {
  await em.fork().transactional(async (tx) => {
    for (const key of [...keys].sort((a, b) => stored(a).localeCompare(stored(b)))) {
      const [row] = await tx.execute<{ failures: number }[]>(
        `insert into login_throttle as t (key, failures, last_failure_at) values (?, 1, now())
         on conflict (key) do update set
           failures = case when t.last_failure_at < now() - make_interval(mins => ?) then 1 else t.failures + 1 end,
           last_failure_at = now()
         returning failures`,
        [stored(key), FORGET_MINUTES],
      );
      const delay = delayAfter(key.kind, row!.failures);
      await tx.execute(
        `update login_throttle set blocked_until = case when ? > 0 then now() + make_interval(secs => ?) end
         where key = ?`,
        [delay, delay, stored(key)],
      );
    }
    await tx.execute('delete from login_throttle where last_failure_at < now() - make_interval(mins => ?)', [
      FORGET_MINUTES,
    ]);
  });
}

/** The right password: the keys start again from nothing. */
export async function clearFailures(em: EntityManager, keys: ThrottleKey[]): Promise<void> {
  if (keys.length === 0) return;
  await em.execute('delete from login_throttle where key in (?)', [keys.map(stored)]);
}
