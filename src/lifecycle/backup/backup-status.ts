import type { EntityManager } from '@mikro-orm/postgresql';
import type { Environment } from '../../platform/config/config.ts';
import { providerKey } from './enqueue.ts';

/** One version's state at the backup provider. */
export interface VersionBackup {
  number: number;
  sha256: string;
  status: 'pending' | 'acknowledged' | 'refused';
  attempts: number;
  acknowledgedSha256: string | null;
  acknowledgedAt: Date | null;
  lastError: string | null;
}

/** A passport's backup status (GET /v1/dpps/{dppId}/backup). */
export interface PassportBackupStatus {
  /** configured: a backup provider is set; not_configured: nothing is pushed. */
  provider: 'configured' | 'not_configured';
  /** The link the registry carries (Art. 8(7)(e)): the copy at the backup provider; null without a provider. */
  backupLink: string | null;
  /** The state of the passport as a whole: every version acknowledged, some pending, or some needing attention. */
  state: 'acknowledged' | 'pending' | 'attention' | 'not_configured';
  latestAcknowledgedVersion: number | null;
  versions: VersionBackup[];
}

interface Row {
  number: number;
  sha256: string;
  status: VersionBackup['status'];
  attempts: number;
  acknowledged_sha256: string | null;
  acknowledged_at: Date | string | null;
  last_error: string | null;
  digital_link_path: string;
  stuck: boolean;
}

/**
 * The backup status of a passport (item or level, by its service uid) from backup_pushes, newest versions last.
 * A version pending longer than `stuckAfterMs`, or refused, puts the passport in `attention`.
 */
export async function passportBackupStatus(
  em: EntityManager,
  passport: { companyId: string; environment: Environment; serviceUid: string },
  provider: { peerId: string; url: string; publicBaseUrl: string; stuckAfterMs: number } | undefined,
): Promise<PassportBackupStatus> {
  if (!provider) {
    return {
      provider: 'not_configured',
      backupLink: null,
      state: 'not_configured',
      latestAcknowledgedVersion: null,
      versions: [],
    };
  }
  const rows = await em.getConnection().execute<Row[]>(
    `select number, sha256, status, attempts, acknowledged_sha256, acknowledged_at, last_error, digital_link_path,
       (status = 'refused' or (status = 'pending' and created_at < now() - make_interval(secs => ?))) as stuck
     from backup_pushes where company_id = ? and environment = ? and passport_key = ? and provider = ?
     order by number`,
    [
      provider.stuckAfterMs / 1000,
      passport.companyId,
      passport.environment,
      passport.serviceUid,
      providerKey(provider),
    ],
  );
  const acknowledged = rows.filter((row) => row.status === 'acknowledged');
  const state = rows.some((row) => row.stuck)
    ? 'attention'
    : rows.length > 0 && acknowledged.length === rows.length
      ? 'acknowledged'
      : 'pending';
  return {
    provider: 'configured',
    backupLink: rows[0] ? backupLink(provider, rows[0].digital_link_path) : null,
    state,
    latestAcknowledgedVersion: acknowledged.at(-1)?.number ?? null,
    versions: rows.map((row) => ({
      number: row.number,
      sha256: row.sha256.trim(),
      status: row.status,
      attempts: row.attempts,
      acknowledgedSha256: row.acknowledged_sha256?.trim() ?? null,
      acknowledgedAt: row.acknowledged_at === null ? null : new Date(row.acknowledged_at),
      lastError: row.last_error,
    })),
  };
}

/** The backup link of a Digital Link path (docs/backup.md): `{backupBase}/backup/{providerId}{path}`. */
export function backupLink(
  provider: { peerId: string; publicBaseUrl: string },
  digitalLinkPath: string,
): string {
  return `${provider.publicBaseUrl}/backup/${provider.peerId}${digitalLinkPath}`;
}
