import type { EntityManager } from '@mikro-orm/postgresql';
import type { Environment } from '../../platform/config/config.ts';

/** The ERP view's `backup` member: where the passport's versions stand at the backup provider (docs/backup.md). */
export interface ErpBackup {
  /** acknowledged: every version pushed is; pending: some are being pushed (lastError: why the last try failed); refused: one needs an operator. */
  state: 'acknowledged' | 'pending' | 'refused';
  latestAcknowledgedVersion: number | null;
  lastError: string | null;
}

/** Undefined when nothing of the passport was ever pushed (no backup provider configured). */
export async function erpBackup(
  em: EntityManager,
  passport: { companyId: string; environment: Environment; serviceUid: string },
): Promise<ErpBackup | undefined> {
  const rows = await em
    .getConnection()
    .execute<{ number: number; status: 'pending' | 'acknowledged' | 'refused'; last_error: string | null }[]>(
      `select number, status, last_error from backup_pushes
     where company_id = ? and environment = ? and passport_key = ? order by number`,
      [passport.companyId, passport.environment, passport.serviceUid],
    );
  if (rows.length === 0) return undefined;
  const acknowledged = rows.filter((row) => row.status === 'acknowledged');
  const failing = rows.find((row) => row.status !== 'acknowledged' && row.last_error !== null);
  return {
    state: rows.some((row) => row.status === 'refused')
      ? 'refused'
      : acknowledged.length === rows.length
        ? 'acknowledged'
        : 'pending',
    latestAcknowledgedVersion: acknowledged.at(-1)?.number ?? null,
    lastError: failing?.last_error ?? null,
  };
}
