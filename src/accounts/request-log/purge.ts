import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestLogConfig } from '../../platform/config/request-log-env.ts';
import type { Logger } from '../../platform/logging/logger.ts';
import { runPeriodically } from '../../platform/runtime/periodic.ts';
import { purgeOldEntries, trimToCap } from './store.ts';

/**
 * Trims every company's log (per environment) holding more than `maxRows` entries to its newest `maxRows`. The
 * API processes trim as they write; this catches what they left (a process that stopped before its trim, a cap
 * lowered since). Returns how many entries went.
 */
export async function trimAllToCap(em: EntityManager, maxRows: number): Promise<number> {
  const over = await em.execute<{ company_id: string; environment: string }[]>(
    `select company_id, environment from request_logs group by company_id, environment having count(*) > ?`,
    [maxRows],
  );
  let gone = 0;
  for (const scope of over)
    gone += await trimToCap(em, { companyId: scope.company_id, environment: scope.environment }, maxRows);
  return gone;
}

/**
 * The worker's periodic job that keeps the request log bounded in time and size: every `purgeEveryMs` (first
 * run after one interval), entries older than the retention go and every company's log is trimmed to its cap.
 */
export function startRequestLogPurge(options: {
  em: () => EntityManager;
  logger: Logger;
  settings: RequestLogConfig;
}): { stop(): Promise<void> } {
  const { settings, logger } = options;
  return runPeriodically(
    settings.purgeEveryMs,
    async () => {
      let old = 0;
      // At most 10,000 per statement: a backlog goes in several short deletes, not one long one.
      for (let n = -1; n !== 0; old += n) n = await purgeOldEntries(options.em(), settings.retentionDays);
      const beyond = await trimAllToCap(options.em(), settings.maxRowsPerCompany);
      if (old + beyond > 0) logger.info({ old, beyond }, 'purged request log entries');
    },
    (error) => logger.warn({ err: error }, 'purging the request log failed'),
  );
}
