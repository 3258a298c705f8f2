import { type ReactNode, useCallback, useEffect, useState } from 'react';
import type { Environment } from '../api.ts';
import { usePolling } from '../hooks/use-polling.ts';
import { records, type BackupStatus as Status } from '../passports-api.ts';

interface BackupStatusProps {
  dppId: string;
  environment: Environment;
  onFail: (caught: unknown) => void;
}

const date = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' });
const POLL_MS = 2000;

/** What one state means to someone who never read docs/backup.md. */
function summary(status: Status): ReactNode {
  const total = status.versions.length;
  const acknowledged = status.versions.filter((v) => v.status === 'acknowledged');
  const latest = acknowledged.at(-1)?.acknowledgedAt;
  switch (status.state) {
    case 'not_configured':
      return (
        <>
          <strong>No backup provider is configured</strong> for this service, so no independent copy of this
          passport is kept yet (the EU rules ask for one; see the operator’s backup settings).
        </>
      );
    case 'acknowledged':
      return (
        <>
          <strong>Backed up:</strong> the backup provider holds every version ({total}) and confirmed each by
          its hash{latest ? `, the latest on ${date.format(new Date(latest))}` : ''}.
        </>
      );
    case 'pending':
      return (
        <>
          <strong>Being backed up:</strong> {acknowledged.length} of {total} versions confirmed by the backup
          provider; the rest are on their way (failures are retried).
        </>
      );
    default:
      return (
        <>
          <strong>Needs attention:</strong> the backup provider has not confirmed{' '}
          {total - acknowledged.length} of {total} versions for a long time, or refused one. The service’s
          operator is alerted.
        </>
      );
  }
}

/** The passport's independent backup copy (GET /v1/dpps/{id}/backup) in plain words, read again while pending. */
export function BackupStatus({ dppId, environment, onFail }: BackupStatusProps) {
  const [status, setStatus] = useState<Status | null>(null);
  const load = useCallback(async () => {
    try {
      setStatus(await records.backup(environment, dppId));
    } catch (caught) {
      onFail(caught);
    }
  }, [environment, dppId, onFail]);
  useEffect(() => {
    void load();
  }, [load]);
  const pending = status?.state === 'pending';
  usePolling(load, POLL_MS, pending);

  const failing = status?.versions.filter((v) => v.status !== 'acknowledged' && v.lastError) ?? [];
  return (
    <div className="record-status" aria-live="polite">
      <h3>Backup copy</h3>
      {status === null ? (
        <p>Reading the backup status…</p>
      ) : (
        <>
          <p className={status.state === 'attention' ? 'error' : undefined}>{summary(status)}</p>
          {failing.length > 0 ? (
            <ul aria-label="Versions not backed up yet">
              {failing.map((v) => (
                <li key={v.number}>
                  Version {v.number}: {v.status === 'refused' ? 'refused' : `${v.attempts} attempts`}, last
                  error “{v.lastError}”
                </li>
              ))}
            </ul>
          ) : null}
          {status.backupLink ? (
            <p className="hint">
              The copy’s address (given to the EU registry): <code className="wrap">{status.backupLink}</code>
            </p>
          ) : null}
        </>
      )}
    </div>
  );
}
