import pg from 'pg';
import { migrate, type Orm } from './orm.ts';

/** The advisory lock key replicas take turns on ("dpp-migrate" as 8 bytes, signed). */
const MIGRATION_LOCK = '0x6470702d6d696772';
const POLL_MS = 250;

/**
 * `migrate`, one process at a time: several API and worker replicas starting together against one database
 * would otherwise apply the same pending migrations side by side (duplicate tables, one of them failing its
 * start). The first takes a session advisory lock on a connection of its own and migrates; the others wait and
 * then find nothing pending. Waiting is polling `pg_try_advisory_lock` between short statements, not a blocked
 * `pg_advisory_lock`: a `create index concurrently` of the migrating process waits for every running
 * transaction, and would wait for a blocked lock request forever.
 */
export async function migrateExclusively(url: string, orm: Orm): Promise<string[]> {
  const lock = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  await lock.connect();
  try {
    for (;;) {
      const { rows } = await lock.query<{ locked: boolean }>(
        'select pg_try_advisory_lock($1::bigint) as locked',
        [BigInt(MIGRATION_LOCK).toString()],
      );
      if (rows[0]?.locked) break;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    return await migrate(orm);
  } finally {
    // Ending the session releases the lock too.
    await lock.end().catch(() => {});
  }
}
