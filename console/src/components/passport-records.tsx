import { useState } from 'react';
import type { Environment } from '../api.ts';
import { messageOf } from '../hooks/use-failure.ts';
import { records } from '../passports-api.ts';
import { BackupStatus } from './backup-status.tsx';
import { ErrorAlert } from './error-alert.tsx';
import { RegistryStatus } from './registry-status.tsx';
import './records.css';

interface PassportRecordsProps {
  dppId: string;
  /** The downloaded bundle's file name, e.g. passport-42. */
  fileName: string;
  environment: Environment;
  mayRetry: boolean;
  onFail: (caught: unknown) => void;
}

/** Saves a blob as a file: a temporary object URL and a click on a hidden link. */
function save(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * What is kept about a passport outside this service (any level: item, batch or model): its EU registry
 * registration, its backup copy, and the evidence bundle an authority verifies offline (docs/evidence.md).
 */
export function PassportRecords({ dppId, fileName, environment, mayRetry, onFail }: PassportRecordsProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const download = async () => {
    setBusy(true);
    setError(null);
    try {
      save(await records.evidence(environment, dppId), `${fileName}.evidence.json`);
    } catch (caught) {
      setError(messageOf(caught, 'The evidence bundle could not be downloaded.'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="card records" aria-labelledby="records-heading">
      <h2 id="records-heading">Registry, backup and evidence</h2>
      <RegistryStatus dppId={dppId} environment={environment} mayRetry={mayRetry} onFail={onFail} />
      <BackupStatus dppId={dppId} environment={environment} onFail={onFail} />
      <div className="record-status">
        <h3>Evidence bundle</h3>
        <p>
          One file with every version, signature and anchored event of this passport, which an authority
          checks offline (<a href="/docs#/dpps/readDPPEvidence">what it holds</a>).
        </p>
        <button type="button" className="secondary" disabled={busy} onClick={download}>
          {busy ? 'Preparing the evidence bundle…' : 'Download the evidence bundle'}
        </button>
        <ErrorAlert error={error} />
      </div>
    </section>
  );
}
