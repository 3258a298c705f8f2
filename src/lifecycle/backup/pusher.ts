import type { EntityManager } from '@mikro-orm/postgresql';
import {
  type BackupProviderSettings,
  type PushOutcome,
  pushToBackup,
} from '../../adapters/backup/backup-client.ts';
import type { Logger } from '../../platform/logging/logger.ts';
import { observeBacklog, recordPushOutcome } from './backup-metrics.ts';
import { enqueueNewVersions, providerKey } from './enqueue.ts';
import { type PublicReader, type PushRow, pushOf } from './push-parts.ts';

const BATCH = 50;
const IN_PARALLEL = 8;
/** Backoff after a failed attempt: 1 s doubling, at most 5 minutes. */
export const retryDelayMs = (attempts: number): number =>
  Math.min(1000 * 2 ** Math.max(attempts - 1, 0), 300_000);

// Due pushes, oldest first, leased for two minutes (skip locked: two pushers never take one row); a pusher that
// dies mid-push leaves the row to be taken again when its lease ends.
const CLAIM_DUE = `
  update backup_pushes b set next_attempt_at = now() + interval '2 minutes'
  where b.id in (select id from backup_pushes where provider = ? and status = 'pending' and next_attempt_at <= now()
    order by next_attempt_at, id limit ? for update skip locked)
  returning b.id::text, b.source, b.version_id::text, b.environment, b.digital_link_path, b.number, b.sha256,
    b.attempts, b.version_created_at`;

export interface PusherDeps {
  em: () => EntityManager;
  provider: BackupProviderSettings & { peerId: string };
  read: PublicReader;
  logger: Logger;
  /** A version pending longer than this counts as stuck (metric, status: operator attention). */
  stuckAfterMs: number;
}

/** One pass: new versions enqueued, then every due push attempted; answers how many were attempted. */
export async function pushDueVersions(deps: PusherDeps): Promise<number> {
  const em = deps.em();
  const provider = providerKey(deps.provider);
  await enqueueNewVersions(em, provider);
  const rows = await em.getConnection().execute<PushRow[]>(CLAIM_DUE, [provider, BATCH]);
  let next = 0;
  const lane = async () => {
    while (next < rows.length) {
      const row = rows[next++]!;
      await recordOutcome(em, row, await attempt(deps, row));
    }
  };
  await Promise.all(Array.from({ length: Math.min(IN_PARALLEL, rows.length) }, lane));
  await observeBacklog(em, provider, deps.stuckAfterMs);
  return rows.length;
}

async function attempt(deps: PusherDeps, row: PushRow): Promise<PushOutcome | 'gone'> {
  let push: Awaited<ReturnType<typeof pushOf>>;
  try {
    push = await pushOf(deps.em(), row, deps.read);
  } catch (error) {
    return { kind: 'failed', reason: `reading the version's parts: ${(error as Error).message}` };
  }
  if (!push) return 'gone';
  return pushToBackup(deps.provider, push);
}

async function recordOutcome(em: EntityManager, row: PushRow, outcome: PushOutcome | 'gone'): Promise<void> {
  const execute = (sql: string, params: unknown[]) => em.getConnection().execute(sql, params, 'run');
  if (outcome === 'gone') {
    await execute('delete from backup_pushes where id = ?', [row.id]);
    return;
  }
  // An acknowledgement counts only if the backup computed the version's own hash.
  const acknowledged = outcome.kind === 'acknowledged' && outcome.ack.sha256 === row.sha256.trim();
  recordPushOutcome(
    acknowledged ? 'acknowledged' : outcome.kind === 'acknowledged' ? 'failed' : outcome.kind,
  );
  if (acknowledged) {
    await execute(
      `update backup_pushes set status = 'acknowledged', attempts = attempts + 1, acknowledged_sha256 = ?,
         acknowledged_at = now(), last_error = null where id = ?`,
      [outcome.ack.sha256, row.id],
    );
    return;
  }
  const reason =
    outcome.kind === 'acknowledged'
      ? `the backup acknowledged hash ${outcome.ack.sha256}, not the version's ${row.sha256.trim()}`
      : outcome.reason;
  await execute(
    `update backup_pushes set status = ?, attempts = attempts + 1, last_error = ?,
       next_attempt_at = now() + make_interval(secs => ?) where id = ?`,
    [
      outcome.kind === 'refused' ? 'refused' : 'pending',
      reason,
      retryDelayMs(row.attempts + 1) / 1000,
      row.id,
    ],
  );
}

/** Runs pushDueVersions every `everyMs` (default 1 s) until stopped. */
export function startBackupPusher(deps: PusherDeps & { everyMs?: number }): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  let stopped = false;
  const log = deps.logger.child({ component: 'backup-pusher' });
  const tick = () => {
    if (stopped || running) return;
    running = pushDueVersions(deps)
      .then(() => undefined)
      .catch((error: unknown) => log.warn({ err: error }, 'a backup push pass failed'))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(tick, deps.everyMs ?? 1000);
  timer.unref();
  tick();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
