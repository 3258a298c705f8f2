import { type FormEvent, useEffect, useState } from 'react';
import type { Environment } from '../api.ts';
import { ErrorAlert } from '../components/error-alert.tsx';
import { useFailure } from '../hooks/use-failure.ts';
import { usePageHeading } from '../hooks/use-page-heading.ts';
import { type ImportJob, imports } from '../passports-api.ts';
import { BASE, linkHandler } from '../router.ts';
import '../components/find.css';
import { NotAllowed, useRight } from '../rights.tsx';

interface ImportProps {
  environment: Environment;
  onSessionEnded: (error: unknown) => boolean;
}

const POLL_MS = 250;
const count = new Intl.NumberFormat('en');

/** The file's bytes as base64, a slice at a time (a spreadsheet can be megabytes). */
async function base64Of(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

function progressText(job: ImportJob): string {
  if (job.state === 'checking' && job.total === 0) return 'Reading the spreadsheet…';
  if (job.state === 'checking')
    return `Checking rows: ${count.format(job.processed)} of ${count.format(job.total)}`;
  if (job.state === 'writing')
    return `Writing passports: ${count.format(job.processed)} of ${count.format(job.total)}`;
  return '';
}

/** Add passports: a spreadsheet (CSV or XLSX) of products to reserve passports for, all rows or none. */
export function Import({ environment, onSessionEnded }: ImportProps) {
  const { error, setError, fail } = useFailure(onSessionEnded);
  const heading = usePageHeading('Add passports');
  const [job, setJob] = useState<ImportJob | null>(null);
  const [busy, setBusy] = useState(false);
  const running = job !== null && (job.state === 'checking' || job.state === 'writing');
  const mayImport = useRight('managePassports');

  useEffect(() => {
    if (!running || job === null) return;
    const timer = setTimeout(async () => {
      try {
        setJob((await imports.get(environment, job.id)).job);
      } catch (caught) {
        fail(caught);
        setJob(null);
      }
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [running, job, environment, fail]);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const file = new FormData(event.currentTarget).get('file');
    setError(null);
    if (!(file instanceof File) || file.size === 0) {
      setError('Choose a CSV or XLSX file first.');
      return;
    }
    setBusy(true);
    setJob(null);
    try {
      setJob((await imports.start(environment, file.name, await base64Of(file))).job);
    } catch (caught) {
      fail(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="import-heading">
      <div className="list-header">
        <h1 id="import-heading" ref={heading} tabIndex={-1}>
          Add passports
        </h1>
        <a className="button secondary" href={`${BASE}/passports`} onClick={linkHandler('/passports')}>
          Back to passports
        </a>
      </div>
      <p className="lede">
        Upload a spreadsheet (CSV or XLSX) with one row per product item. Each row reserves a{' '}
        <strong>{environment}</strong> passport, ready to be bound to a chip and minted. Nothing is written
        unless every row is valid; uploading the same file again adds nothing.
      </p>
      <details className="card">
        <summary>What the spreadsheet needs</summary>
        <p>A header row, then one row per item (up to 10,000 per file):</p>
        <ul>
          <li>
            <code>material_number</code> (required): your material or article number, up to 100 characters.
          </li>
          <li>
            <code>order_id</code> (required): the production or purchase order, up to 100 characters.
          </li>
          <li>
            <code>conformity_url</code> (optional): the product’s declaration of conformity, an http(s) URL.
          </li>
        </ul>
      </details>
      {mayImport ? null : <NotAllowed action="add passports" />}
      <form className="inline-form" aria-label="Import a spreadsheet" onSubmit={submit} hidden={!mayImport}>
        <div className="field">
          <label htmlFor="import-file">Spreadsheet (CSV or XLSX)</label>
          <input
            id="import-file"
            name="file"
            type="file"
            accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          />
        </div>
        <button type="submit" disabled={busy || running}>
          {busy ? 'Uploading…' : 'Import'}
        </button>
      </form>
      <ErrorAlert error={error} />
      {job === null ? null : running ? (
        <div className="card">
          <label htmlFor="import-progress">{progressText(job)}</label>
          <progress
            id="import-progress"
            className="import-progress"
            max={Math.max(job.total, 1)}
            value={job.processed}
          />
        </div>
      ) : job.state === 'done' ? (
        <p role="status" className="card">
          {job.alreadyImported
            ? `This file was already imported: its ${count.format(job.written)} passports exist. Nothing was written again.`
            : `${count.format(job.written)} passports reserved.`}{' '}
          <a href={`${BASE}/passports`} onClick={linkHandler('/passports')}>
            Back to passports
          </a>
        </p>
      ) : job.state === 'failed' ? (
        <p role="alert" className="error">
          The import stopped on the server before it finished. Upload the same file again: it carries on where
          it stopped, and no passport is written twice.
        </p>
      ) : (
        <div className="card">
          <p role="alert" className="error">
            Nothing was written: {job.errors.length === 1 ? 'one problem' : `${job.errors.length} problems`}{' '}
            in the spreadsheet. Correct {job.errors.length === 1 ? 'it' : 'them'} and upload the file again.
          </p>
          <div className="import-errors">
            <table className="keys">
              <caption className="visually-hidden">Problems by row</caption>
              <thead>
                <tr>
                  <th scope="col">Row</th>
                  <th scope="col">Column</th>
                  <th scope="col">Problem</th>
                </tr>
              </thead>
              <tbody>
                {job.errors.map((problem) => (
                  <tr key={`${problem.row}:${problem.column}:${problem.message}`}>
                    <td data-label="Row">{problem.row}</td>
                    <td data-label="Column">{problem.column ? <code>{problem.column}</code> : '—'}</td>
                    <td data-label="Problem">{problem.message}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      )}
    </section>
  );
}
