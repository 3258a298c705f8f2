import type { EntityManager } from '@mikro-orm/postgresql';
import type { WorkflowGateway } from '../../adapters/temporal/start.ts';
import type { Environment } from '../../platform/config/config.ts';
import type { Logger } from '../../platform/logging/logger.ts';
import { runPeriodically } from '../../platform/runtime/periodic.ts';
import { startImportWorkflow } from './spreadsheet-import.ts';

/**
 * Starts the workflow of import jobs still running with no progress for `olderThanSeconds` (an API process that
 * stopped between recording the upload and starting its workflow, or a run that failed before it could mark the
 * job failed), oldest first, at most `limit`. A run going is joined (nothing happens), a failed one started
 * again. Returns how many were started or joined.
 */
export async function sweepStalledImports(
  em: EntityManager,
  gateway: WorkflowGateway,
  log: Logger,
  options: { olderThanSeconds?: number; limit?: number } = {},
): Promise<number> {
  const rows = await em
    .getConnection()
    .execute<{ id: string; company_id: string; environment: Environment; file_name: string | null }[]>(
      `select id, company_id, environment, file_name from spreadsheet_imports
     where state in ('checking', 'writing') and updated_at < now() - make_interval(secs => ?)
     order by updated_at limit ?`,
      [options.olderThanSeconds ?? 120, options.limit ?? 100],
    );
  let started = 0;
  for (const row of rows) {
    const scope = { companyId: row.company_id, environment: row.environment };
    try {
      await startImportWorkflow(gateway, scope, row.id, row.file_name ?? undefined);
      started++;
    } catch (error) {
      log.warn({ err: error, importId: row.id }, 'spreadsheet import not started');
    }
  }
  return started;
}

/** Runs `sweepStalledImports` every `everyMs` (first run after one interval) until stopped. */
export function startImportSweep(options: {
  em: () => EntityManager;
  gateway: WorkflowGateway;
  logger: Logger;
  everyMs?: number;
}): { stop(): Promise<void> } {
  return runPeriodically(
    options.everyMs ?? 60_000,
    async () => {
      await sweepStalledImports(options.em(), options.gateway, options.logger);
    },
    (error) => options.logger.warn({ err: error }, 'spreadsheet import sweep failed'),
  );
}
