import type { EntityManager } from '@mikro-orm/postgresql';
import type { WorkflowGateway } from '../../adapters/temporal/start.ts';
import type { Environment } from '../../platform/config/config.ts';
import type { Logger } from '../../platform/logging/logger.ts';
import { runPeriodically } from '../../platform/runtime/periodic.ts';
import { startVersionAnchor } from './level-anchor.ts';

interface PendingRow {
  level_id: number;
  number: number;
  company_id: string;
  environment: Environment;
  gtin: string;
}

/**
 * Starts the anchor workflow of level versions still pending `olderThanSeconds` after they were recorded (the
 * API starts it after the commit; a process that stopped in between, or a start that failed, leaves it to this
 * sweep), oldest first, at most `limit`. A running workflow is joined, a completed one left alone, a failed one
 * started again. Returns how many were started or joined.
 */
export async function sweepPendingLevelAnchors(
  em: EntityManager,
  gateway: WorkflowGateway,
  log: Logger,
  options: { olderThanSeconds?: number; limit?: number } = {},
): Promise<number> {
  const rows = await em.getConnection().execute<PendingRow[]>(
    `select v.level_id, v.number, l.company_id, l.environment, l.gtin
     from dpp_level_versions v join dpp_levels l on l.id = v.level_id
     where v.anchor_status = 'pending' and v.created_at < now() - make_interval(secs => ?)
     order by v.created_at limit ?`,
    [options.olderThanSeconds ?? 60, options.limit ?? 100],
  );
  let started = 0;
  for (const row of rows) {
    const scope = { companyId: row.company_id, environment: row.environment };
    try {
      await startVersionAnchor(gateway, scope, { levelId: row.level_id, gtin: row.gtin, number: row.number });
      started++;
    } catch (error) {
      log.warn({ err: error, levelId: row.level_id, number: row.number }, 'level anchor not started');
    }
  }
  return started;
}

/** Runs `sweepPendingLevelAnchors` every `everyMs` (first run after one interval) until stopped. */
export function startLevelAnchorSweep(options: {
  em: () => EntityManager;
  gateway: WorkflowGateway;
  logger: Logger;
  everyMs?: number;
}): { stop(): Promise<void> } {
  return runPeriodically(
    options.everyMs ?? 60_000,
    async () => {
      const started = await sweepPendingLevelAnchors(options.em(), options.gateway, options.logger);
      if (started > 0) options.logger.info({ started }, 'started anchors of pending level versions');
    },
    (error) => options.logger.warn({ err: error }, 'level anchor sweep failed'),
  );
}
