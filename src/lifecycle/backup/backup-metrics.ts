import type { EntityManager } from '@mikro-orm/postgresql';
import { Counter, Gauge } from 'prom-client';
import { metricsRegistry } from '../../platform/observability/metrics.ts';

const pushes = new Counter({
  name: 'dpp_backup_pushes_total',
  help: 'Pushes of passport versions to the backup provider, by outcome (acknowledged, failed, refused).',
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry],
});

const pending = new Gauge({
  name: 'dpp_backup_pending_versions',
  help: 'Published versions not yet acknowledged by the backup provider.',
  registers: [metricsRegistry],
});

const stuck = new Gauge({
  name: 'dpp_backup_stuck_versions',
  help: 'Versions pending at the backup provider longer than BACKUP_STUCK_AFTER_SECONDS, or refused by it: an operator looks.',
  registers: [metricsRegistry],
});

const oldest = new Gauge({
  name: 'dpp_backup_oldest_pending_seconds',
  help: 'Age of the oldest version not yet acknowledged by the backup provider (0 when none).',
  registers: [metricsRegistry],
});

export function recordPushOutcome(outcome: 'acknowledged' | 'failed' | 'refused'): void {
  pushes.inc({ outcome });
}

/** The backlog's gauges, from the table (so every pusher reports the same figures). */
export async function observeBacklog(
  em: EntityManager,
  provider: string,
  stuckAfterMs: number,
): Promise<void> {
  const [row] = await em.getConnection().execute<{ pending: number; stuck: number; oldest: number | null }[]>(
    `select count(*) filter (where status = 'pending')::int as pending,
       count(*) filter (where status = 'refused' or created_at < now() - make_interval(secs => ?))::int as stuck,
       extract(epoch from now() - min(created_at))::float8 as oldest
     from backup_pushes where provider = ? and status <> 'acknowledged'`,
    [stuckAfterMs / 1000, provider],
  );
  pending.set(row?.pending ?? 0);
  stuck.set(row?.stuck ?? 0);
  oldest.set(row?.oldest ?? 0);
}
