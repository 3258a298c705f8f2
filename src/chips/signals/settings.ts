import type { EntityManager } from '@mikro-orm/postgresql';
import { DEFAULT_SIGNAL_SETTINGS, type SignalSettings, type SignalType } from './signal-types.ts';

interface SettingsRow {
  reopen_threshold: number;
  counter_jump_threshold: number;
  burst_taps: number;
  burst_window_seconds: number;
  notify: SignalType[];
  updated_at: Date;
}

/** The company's thresholds (both environments), the defaults when it never set them. */
export async function signalSettings(
  em: EntityManager,
  companyId: string,
): Promise<SignalSettings & { updatedAt: string | null }> {
  const [row] = await em.execute<SettingsRow[]>('select * from signal_settings where company_id = ?', [
    companyId,
  ]);
  if (!row) return { ...DEFAULT_SIGNAL_SETTINGS, updatedAt: null };
  return {
    reopenThreshold: row.reopen_threshold,
    counterJumpThreshold: row.counter_jump_threshold,
    burstTaps: row.burst_taps,
    burstWindowSeconds: row.burst_window_seconds,
    notify: row.notify,
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

/** Replaces the company's thresholds; fields left out keep their current value. */
export async function setSignalSettings(
  em: EntityManager,
  companyId: string,
  change: Partial<SignalSettings>,
): Promise<SignalSettings & { updatedAt: string | null }> {
  const next = { ...(await signalSettings(em, companyId)), ...change };
  await em.execute(
    `insert into signal_settings
       (company_id, reopen_threshold, counter_jump_threshold, burst_taps, burst_window_seconds, notify, updated_at)
     values (?, ?, ?, ?, ?, ?::jsonb, now())
     on conflict (company_id) do update set reopen_threshold = excluded.reopen_threshold,
       counter_jump_threshold = excluded.counter_jump_threshold, burst_taps = excluded.burst_taps,
       burst_window_seconds = excluded.burst_window_seconds, notify = excluded.notify, updated_at = now()`,
    [
      companyId,
      next.reopenThreshold,
      next.counterJumpThreshold,
      next.burstTaps,
      next.burstWindowSeconds,
      JSON.stringify([...new Set(next.notify)]),
    ],
  );
  return signalSettings(em, companyId);
}
