import { type FormEvent, type InputHTMLAttributes, useCallback, useEffect, useState } from 'react';
import { ApiError, type Environment } from '../api.ts';
import { CopyableValue, CopyButton, TransactionHash } from '../components/copy-button.tsx';
import { ErrorAlert } from '../components/error-alert.tsx';
import { LevelList } from '../components/level-list.tsx';
import { kindFromAddress, LevelTabs, type PassportKind } from '../components/level-tabs.tsx';
import { MintProgress } from '../components/mint-progress.tsx';
import { Pager } from '../components/pager.tsx';
import { RunningMints } from '../components/running-mints.tsx';
import { StatusBadge } from '../components/status-badge.tsx';
import { useFailure } from '../hooks/use-failure.ts';
import { useLatestRequest } from '../hooks/use-latest-request.ts';
import { usePageHeading } from '../hooks/use-page-heading.ts';
import { type PassportQuery, type PassportRow, type PassportStatus, passports } from '../passports-api.ts';
import { BASE, linkHandler, navigate } from '../router.ts';
import '../components/find.css';
import { NotAllowed, useRight } from '../rights.tsx';

interface PassportsProps {
  environment: Environment;
  onSessionEnded: (error: unknown) => boolean;
}

const FIELDS = ['q', 'chipUid', 'tokenId', 'gtin', 'batch', 'status'] as const;
type Field = (typeof FIELDS)[number];

const STATUSES: PassportStatus[] = ['ACTIVE', 'REVOKED', 'RECYCLED'];
const dateTime = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' });

/** One text field of the search, with the rule the API gave when it refused the field's value. */
function SearchField({
  field,
  label,
  error,
  wide,
  ...input
}: {
  field: Field;
  label: string;
  error: string | undefined;
  wide?: boolean;
} & InputHTMLAttributes<HTMLInputElement>) {
  const errorId = `search-${field}-error`;
  return (
    <div className={wide ? 'field field-wide' : 'field'}>
      <label htmlFor={`search-${field}`}>{label}</label>
      <input
        id={`search-${field}`}
        name={field}
        {...input}
        {...(error ? { 'aria-invalid': true, 'aria-describedby': errorId } : {})}
      />
      {error ? (
        <p className="field-error" id={errorId}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** Where the list's Add button leads for batches and models: the new-passport form with its granularity. */
const newLevel = (kind: 'batches' | 'models') =>
  `/authoring/new?granularity=${kind === 'models' ? 'Model' : 'Batch'}`;

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

/**
 * Passports: search the environment's passports (free text, or exact chip UID, token id, GTIN, batch, status), a
 * page at a time. A refused value is shown at its field, never above a "no passport matches".
 */
export function Passports({ environment, onSessionEnded }: PassportsProps) {
  const { error, setError, fail } = useFailure(onSessionEnded);
  const heading = usePageHeading('Passports');
  const [kind, setKind] = useState<PassportKind>(kindFromAddress);
  const [query, setQuery] = useState<PassportQuery>(queryFromAddress);
  /** The cursors of the pages visited: the last one is the page shown (null: the first page). */
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const [page, setPage] = useState<{ passports: PassportRow[]; nextCursor: string | null } | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<Field, string>>>({});
  const cursor = cursors.at(-1) ?? null;

  const begin = useLatestRequest();
  const load = useCallback(async () => {
    if (kind !== 'items') return;
    const request = begin();
    setPage(null);
    setError(null);
    setFieldErrors({});
    try {
      const answer = await passports.search(environment, query, cursor);
      if (request.isLatest()) setPage(answer);
    } catch (caught) {
      if (!request.isLatest()) return;
      const fields = caught instanceof ApiError ? caught.fields : [];
      const mine = fields.filter((f) =>
        (FIELDS as readonly string[]).includes(f.path.replace(/^query\./, '')),
      );
      if (mine.length > 0 && mine.length === fields.length) {
        setFieldErrors(
          Object.fromEntries(mine.map((f) => [f.path.replace(/^query\./, ''), f.message])) as Partial<
            Record<Field, string>
          >,
        );
        setPage({ passports: [], nextCursor: null });
        return;
      }
      fail(caught);
      setPage({ passports: [], nextCursor: null });
    }
  }, [kind, environment, query, cursor, fail, setError, begin]);
  const invalid = Object.keys(fieldErrors).length > 0;
  const open = (tokenId: string) => navigate(`/passports/${tokenId}`);
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
  const mayAdd = useRight('managePassports');

  // Right above the list they switch (after the items' search, which keeps its place after the Add button).
  const tabs = (
    <LevelTabs
      kind={kind}
      onChange={(next) => {
        setKind(next);
        setQuery({});
        setCursors([null]);
      }}
    />
  );
  const header = (
    <>
      <div className="list-header">
        <h1 id="passports-heading" ref={heading} tabIndex={-1}>
          Passports
        </h1>
        {!mayAdd ? (
          <NotAllowed action="add passports" className="hint" />
        ) : kind === 'items' ? (
          <a className="button" href={`${BASE}/import`} onClick={linkHandler('/import')}>
            Add passports
          </a>
        ) : (
          <a className="button" href={`${BASE}${newLevel(kind)}`} onClick={linkHandler(newLevel(kind))}>
            {kind === 'models' ? 'Add a model passport' : 'Add a batch passport'}
          </a>
        )}
      </div>
    </>
  );
  if (kind !== 'items') {
    return (
      <section aria-labelledby="passports-heading">
        {header}
        <p className="lede">
          The <strong>{environment}</strong> {kind === 'models' ? 'model' : 'batch'} passports of your
          company, newest first: what every item of a {kind === 'models' ? 'GTIN' : 'GTIN and lot'} shares,
          inherited by those items. Open one by its row.
        </p>
        {tabs}
        <ErrorAlert error={error} />
        <LevelList
          granularity={kind === 'models' ? 'model' : 'batch'}
          environment={environment}
          onFail={fail}
        />
      </section>
    );
  }

  return (
    <section aria-labelledby="passports-heading">
      {header}
      <p className="lede">
        The <strong>{environment}</strong> passports of your company, newest first. Search by part of a
        product name, GTIN, batch, chip UID or token id; narrow with the exact filters. Open a passport by its
        row.
      </p>
      {/* Keyed by the query: Clear empties the fields. */}
      <search>
        <form
          className="search-form"
          aria-label="Search passports"
          onSubmit={search}
          key={JSON.stringify(query)}
        >
          <SearchField
            field="q"
            label="Search"
            wide
            type="search"
            defaultValue={query.q}
            maxLength={100}
            placeholder="Name, GTIN, batch, chip UID or token id"
            error={fieldErrors.q}
          />
          <SearchField
            field="chipUid"
            label="Chip UID"
            defaultValue={query.chipUid}
            maxLength={40}
            error={fieldErrors.chipUid}
          />
          <SearchField
            field="tokenId"
            label="Token ID"
            defaultValue={query.tokenId}
            inputMode="numeric"
            error={fieldErrors.tokenId}
          />
          <SearchField
            field="gtin"
            label="GTIN"
            defaultValue={query.gtin}
            inputMode="numeric"
            maxLength={14}
            error={fieldErrors.gtin}
          />
          <SearchField
            field="batch"
            label="Batch"
            defaultValue={query.batch}
            maxLength={100}
            error={fieldErrors.batch}
          />
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
      {tabs}
      <ErrorAlert error={error} />
      {filtered ? null : <RunningMints environment={environment} onOpen={openMint} onFail={fail} />}

      {invalid ? (
        <p role="alert" className="error">
          Correct the highlighted {Object.keys(fieldErrors).length === 1 ? 'field' : 'fields'} to search.
        </p>
      ) : page === null ? (
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
          <table className="keys passports clickable-rows">
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
                <th scope="col">Mint transaction</th>
              </tr>
            </thead>
            <tbody>
              {page.passports.map((passport) => (
                <tr
                  key={passport.tokenId}
                  tabIndex={0}
                  aria-label={`Passport ${passport.tokenId}${passport.name ? `: ${passport.name}` : ''}`}
                  onClick={(event) => {
                    // A selection of text (to copy it by hand) is not a click on the row.
                    if (window.getSelection()?.toString()) return;
                    if ((event.target as HTMLElement).closest('a, button')) return;
                    open(passport.tokenId);
                  }}
                  onKeyDown={(event) => {
                    if (event.target !== event.currentTarget) return;
                    if (event.key === 'Enter' || event.key === ' ') {
                      event.preventDefault();
                      open(passport.tokenId);
                    }
                  }}
                >
                  <td data-label="Token ID">
                    <span className="copyable">
                      <a
                        href={`${BASE}/passports/${passport.tokenId}`}
                        onClick={linkHandler(`/passports/${passport.tokenId}`)}
                      >
                        {passport.tokenId}
                      </a>
                      <CopyButton value={passport.tokenId} label="token id" />
                    </span>
                  </td>
                  <td data-label="Product">{passport.name ?? '—'}</td>
                  <td data-label="Chip UID">
                    <CopyableValue value={passport.chipUid} label="chip UID" />
                  </td>
                  <td data-label="GTIN">{passport.gtin ?? '—'}</td>
                  <td data-label="Batch">{passport.batch ?? '—'}</td>
                  <td data-label="Status">
                    <StatusBadge status={passport.status} />
                  </td>
                  <td data-label="Minted">{dateTime.format(new Date(passport.mintedAt))}</td>
                  <td data-label="Mint transaction">
                    <TransactionHash hash={passport.transactionHash} url={passport.transactionUrl} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      {page !== null && !invalid ? (
        <Pager
          label="Pages of passports"
          cursors={cursors}
          nextCursor={page.nextCursor}
          onChange={setCursors}
        />
      ) : null}
    </section>
  );
}
