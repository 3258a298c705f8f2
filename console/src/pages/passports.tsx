import { type FormEvent, useCallback, useEffect, useState } from 'react';
import type { Environment } from '../api.ts';
import { ErrorAlert } from '../components/error-alert.tsx';
import { MintProgress } from '../components/mint-progress.tsx';
import { RunningMints } from '../components/running-mints.tsx';
import { StatusBadge } from '../components/status-badge.tsx';
import { useFailure } from '../hooks/use-failure.ts';
import { usePageHeading } from '../hooks/use-page-heading.ts';
import {
  type PassportQuery,
  type PassportStatus,
  type PassportSummary,
  passports,
} from '../passports-api.ts';
import { BASE, linkHandler } from '../router.ts';

interface PassportsProps {
  environment: Environment;
  onSessionEnded: (error: unknown) => boolean;
}

const FIELDS = ['chipUid', 'tokenId', 'gtin', 'batch', 'status'] as const;
const STATUSES: PassportStatus[] = ['ACTIVE', 'REVOKED', 'RECYCLED'];
const dateTime = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' });

/** The search in the address bar (?gtin=…), so Back from a passport returns to the same results. */
function queryFromAddress(): PassportQuery {
  const params = new URLSearchParams(window.location.search);
  const query: Record<string, string> = {};
  for (const field of FIELDS) {
    const value = params.get(field)?.trim();
    if (value) query[field] = value;
  }
  return query as PassportQuery;
}

/** Passports: search the environment's passports (chip UID, token id, GTIN, batch, status), a page at a time. */
export function Passports({ environment, onSessionEnded }: PassportsProps) {
  const { error, setError, fail } = useFailure(onSessionEnded);
  const heading = usePageHeading('Passports');
  const [query, setQuery] = useState<PassportQuery>(queryFromAddress);
  /** The cursors of the pages visited: the last one is the page shown (null: the first page). */
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const [page, setPage] = useState<{ passports: PassportSummary[]; nextCursor: string | null } | null>(null);
  const cursor = cursors.at(-1) ?? null;

  const load = useCallback(async () => {
    setPage(null);
    setError(null);
    try {
      setPage(await passports.search(environment, query, cursor));
    } catch (caught) {
      fail(caught);
      setPage({ passports: [], nextCursor: null });
    }
  }, [environment, query, cursor, fail, setError]);
  useEffect(() => {
    void load();
  }, [load]);

  const search = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const next: Record<string, string> = {};
    for (const field of FIELDS) {
      const value = String(form.get(field) ?? '').trim();
      if (value) next[field] = value;
    }
    const address = new URLSearchParams(next).toString();
    window.history.replaceState(null, '', `${BASE}/passports${address ? `?${address}` : ''}`);
    setQuery(next as PassportQuery);
    setCursors([null]);
  };
  const clear = () => {
    window.history.replaceState(null, '', `${BASE}/passports`);
    setQuery({});
    setCursors([null]);
  };
  /** A running mint's chip: search it (no passport yet, so its mint's progress shows). */
  const openMint = (chipUid: string) => {
    window.history.replaceState(null, '', `${BASE}/passports?chipUid=${encodeURIComponent(chipUid)}`);
    setQuery({ chipUid });
    setCursors([null]);
  };
  const filtered = Object.keys(query).length > 0;

  return (
    <section aria-labelledby="passports-heading">
      <h1 id="passports-heading" ref={heading} tabIndex={-1}>
        Passports
      </h1>
      <p className="lede">
        The <strong>{environment}</strong> passports of your company, newest first. Search by any of chip UID,
        token id, GTIN, batch and status (exact values; all given must match).
      </p>
      {/* Keyed by the query: Clear empties the fields. */}
      <search>
        <form
          className="search-form"
          aria-label="Search passports"
          onSubmit={search}
          key={JSON.stringify(query)}
        >
          <div className="field">
            <label htmlFor="search-chip">Chip UID</label>
            <input id="search-chip" name="chipUid" defaultValue={query.chipUid} maxLength={40} />
          </div>
          <div className="field">
            <label htmlFor="search-token">Token ID</label>
            <input id="search-token" name="tokenId" defaultValue={query.tokenId} inputMode="numeric" />
          </div>
          <div className="field">
            <label htmlFor="search-gtin">GTIN</label>
            <input
              id="search-gtin"
              name="gtin"
              defaultValue={query.gtin}
              inputMode="numeric"
              maxLength={14}
            />
          </div>
          <div className="field">
            <label htmlFor="search-batch">Batch</label>
            <input id="search-batch" name="batch" defaultValue={query.batch} maxLength={100} />
          </div>
          <div className="field">
            <label htmlFor="search-status">Status</label>
            <select id="search-status" name="status" defaultValue={query.status ?? ''}>
              <option value="">Any</option>
              {STATUSES.map((status) => (
                <option key={status} value={status}>
                  {status.charAt(0) + status.slice(1).toLowerCase()}
                </option>
              ))}
            </select>
          </div>
          <div className="search-actions">
            <button type="submit">Search</button>
            {filtered ? (
              <button type="button" className="secondary" onClick={clear}>
                Clear
              </button>
            ) : null}
          </div>
        </form>
      </search>
      <ErrorAlert error={error} />
      {filtered ? null : <RunningMints environment={environment} onOpen={openMint} onFail={fail} />}

      {page === null ? (
        <p role="status">Loading passports…</p>
      ) : page.passports.length === 0 ? (
        <>
          <p role="status">
            {filtered ? 'No passport matches this search.' : `No ${environment} passports yet.`}
          </p>
          {query.chipUid && !error ? (
            <MintProgress chipUid={query.chipUid} environment={environment} onFail={fail} />
          ) : null}
        </>
      ) : (
        <>
          <p role="status" className="visually-hidden">
            {`Page ${cursors.length}: ${page.passports.length} passports.`}
          </p>
          <table className="keys passports">
            <caption className="visually-hidden">
              {filtered ? 'Passports found' : `The ${environment} passports`}, page {cursors.length}
            </caption>
            <thead>
              <tr>
                <th scope="col">Token ID</th>
                <th scope="col">Product</th>
                <th scope="col">Chip UID</th>
                <th scope="col">GTIN</th>
                <th scope="col">Batch</th>
                <th scope="col">Status</th>
                <th scope="col">Minted</th>
              </tr>
            </thead>
            <tbody>
              {page.passports.map((passport) => (
                <tr key={passport.tokenId}>
                  <td data-label="Token ID">
                    <a
                      href={`${BASE}/passports/${passport.tokenId}`}
                      onClick={linkHandler(`/passports/${passport.tokenId}`)}
                    >
                      {passport.tokenId}
                    </a>
                  </td>
                  <td data-label="Product">{passport.name ?? '—'}</td>
                  <td data-label="Chip UID">
                    <code>{passport.chipUid}</code>
                  </td>
                  <td data-label="GTIN">{passport.gtin ?? '—'}</td>
                  <td data-label="Batch">{passport.batch ?? '—'}</td>
                  <td data-label="Status">
                    <StatusBadge status={passport.status} />
                  </td>
                  <td data-label="Minted">{dateTime.format(new Date(passport.mintedAt))}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      {page !== null && (cursors.length > 1 || page.nextCursor) ? (
        <nav className="pager" aria-label="Pages of passports">
          <button
            type="button"
            className="secondary"
            disabled={cursors.length === 1}
            onClick={() => setCursors(cursors.slice(0, -1))}
          >
            Previous page
          </button>
          <span>Page {cursors.length}</span>
          <button
            type="button"
            className="secondary"
            disabled={!page.nextCursor}
            onClick={() => setCursors([...cursors, page.nextCursor])}
          >
            Next page
          </button>
        </nav>
      ) : null}
    </section>
  );
}
