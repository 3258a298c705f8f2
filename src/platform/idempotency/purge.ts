import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../logging/logger.ts';
import { runPeriodically } from '../runtime/periodic.ts';
import { IDEMPOTENCY_TTL_HOURS } from './store.ts';

/**
 * Deletes Idempotency-Keys past their lifetime, at most `limit` per call (oldest first). An expired key only
 * waits to be overwritten by a new request with the same key, which most never get: without this the table
 * grows with every keyed request. Returns how many went.
 */
export async function purgeExpiredKeys(em: EntityManager, limit = 10_000): Promise<number> {
  const rows = await em.getConnection().execute<{ n: number }[]>(
    `with expired as (
       select company_id, environment, key from idempotency_keys
       where created_at < now() - make_interval(hours => ?)
       order by created_at limit ?
     ), gone as (
       delete from idempotency_keys k using expired e
       where k.company_id = e.company_id and k.environment = e.environment and k.key = e.key
       returning 1
     )
     select count(*)::int as n from gone`,
    [IDEMPOTENCY_TTL_HOURS, limit],
  );
  return rows[0]?.n ?? 0;
}

/** Runs `purgeExpiredKeys` every `everyMs` (first run after one interval) until stopped. */
export function startKeyPurge(options: { em: () => EntityManager; logger: Logger; everyMs?: number }): {
  stop(): Promise<void>;
} {
  return runPeriodically(
    options.everyMs ?? 10 * 60_000,
    async () => {
      const n = await purgeExpiredKeys(options.em());
      if (n > 0) options.logger.info({ deleted: n }, 'purged expired Idempotency-Keys');
    },
    (error) => options.logger.warn({ err: error }, 'purging expired Idempotency-Keys failed'),
  );
}
