import '../logs.css';
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { type ApiKey, apiKeys, type Environment } from '../api.ts';
import { dateTime } from '../components/delivery-attempts.tsx';
import { ErrorAlert } from '../components/error-alert.tsx';
import { LogEntry, madeWith } from '../components/log-entry.tsx';
import { useFailure } from '../hooks/use-failure.ts';
import { useLatestRequest } from '../hooks/use-latest-request.ts';
import { usePageHeading } from '../hooks/use-page-heading.ts';
import { usePolling } from '../hooks/use-polling.ts';
import { type LogFilter, type RequestLogDetail, type RequestLogSummary, requestLogs } from '../logs-api.ts';

interface LogsProps {
  environment: Environment;
  onSessionEnded: (error: unknown) => boolean;
}

/** How often the open log reads its newest page. */
const POLL_MS = 3_000;

const STATUS_CHOICES = [
  ['', 'Any'],
  ['2xx', 'Succeeded (2xx)'],
  ['failed', 'Failed (4xx and 5xx)'],
  ['4xx', 'Client errors (4xx)'],
  ['5xx', 'Server errors (5xx)'],
] as const;
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** A datetime-local value (the browser's time zone) as ISO 8601, or nothing. */
const isoOf = (value: FormDataEntryValue | null) => {
  const text = String(value ?? '');
  return text ? new Date(text).toISOString() : undefined;
};

/** Developers › Logs: every API request of the company in this environment, live, filterable, each openable. */
export function Logs({ environment, onSessionEnded }: LogsProps) {
  const { error, setError, fail } = useFailure(onSessionEnded);
  const heading = usePageHeading('Logs');
  const [filter, setFilter] = useState<LogFilter>({});
  const [entries, setEntries] = useState<RequestLogSummary[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [keys, setKeys] = useState<ApiKey[]>([]);
  const [open, setOpen] = useState<RequestLogDetail | null>(null);
  const [live, setLive] = useState(true);
  const [updatedAt, setUpdatedAt] = useState<Date | null>(null);

  const begin = useLatestRequest();
  const load = useCallback(async () => {
    const request = begin();
    try {
      const page = await requestLogs.list(environment, filter);
      if (!request.isLatest()) return;
      setEntries(page.requestLogs);
      setNext(page.nextCursor);
      setUpdatedAt(new Date());
      setError(null);
    } catch (caught) {
      if (request.isLatest()) fail(caught);
    }
  }, [environment, filter, fail, setError, begin]);

  useEffect(() => {
    setEntries(null);
    setOpen(null);
    void load();
  }, [load]);
  useEffect(() => {
    apiKeys.list(environment).then((answer) => setKeys(answer.apiKeys), fail);
  }, [environment, fail]);

  // The newest page, merged above what is shown (older pages already read stay).
  const poll = useCallback(async () => {
    try {
      const page = await requestLogs.list(environment, filter);
      setEntries((current) => {
        if (current === null) return page.requestLogs;
        const known = new Set(current.map((e) => e.id));
        return [...page.requestLogs.filter((e) => !known.has(e.id)), ...current];
      });
      setUpdatedAt(new Date());
    } catch (caught) {
      fail(caught);
    }
  }, [environment, filter, fail]);
  const polling = usePolling(poll, POLL_MS, live);

  const older = async () => {
    if (!next) return;
    try {
      const page = await requestLogs.list(environment, filter, next);
      setEntries((current) => [...(current ?? []), ...page.requestLogs]);
      setNext(page.nextCursor);
    } catch (caught) {
      fail(caught);
    }
  };
  const openEntry = async (id: string) => {
    try {
      setOpen((await requestLogs.get(environment, id)).requestLog);
    } catch (caught) {
      fail(caught);
    }
  };
  const applyFilter = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? '').trim() || undefined;
    setFilter({
      status: text('status'),
      method: text('method'),
      pathPrefix: text('pathPrefix'),
      madeWith: text('madeWith'),
      from: isoOf(form.get('from')),
      to: isoOf(form.get('to')),
    });
  };

  return (
    <section aria-labelledby="logs-heading">
      <h1 id="logs-heading" ref={heading} tabIndex={-1}>
        Logs
      </h1>
      <p className="lede">
        Every request your API keys, OAuth clients and people made in the <strong>{environment}</strong>{' '}
        environment, newest first. Open one to see what was sent and answered; passwords, keys, secrets and
        card numbers are shown as [redacted]. Requests are kept 30 days.
      </p>
      <ErrorAlert error={error} />
      <form className="search-form" aria-label="Filter the log" onSubmit={applyFilter}>
        <div className="field">
          <label htmlFor="log-status">Status</label>
          <select id="log-status" name="status" defaultValue="">
            {STATUS_CHOICES.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="log-method">Method</label>
          <select id="log-method" name="method" defaultValue="">
            <option value="">Any</option>
            {METHODS.map((method) => (
              <option key={method}>{method}</option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="log-path">Path starts with</label>
          <input id="log-path" name="pathPrefix" placeholder="/v1/dpp" maxLength={200} />
        </div>
        <div className="field">
          <label htmlFor="log-made-with">Made with</label>
          <select id="log-made-with" name="madeWith" defaultValue="">
            <option value="">Anything</option>
            {keys.map((key) => (
              <option key={key.id} value={key.id}>
                Key {key.name} ({key.prefix}…)
              </option>
            ))}
            <option value="user">People (console, user tokens)</option>
            <option value="oauth">OAuth clients</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="log-from">From</label>
          <input id="log-from" name="from" type="datetime-local" />
        </div>
        <div className="field">
          <label htmlFor="log-to">Until</label>
          <input id="log-to" name="to" type="datetime-local" />
        </div>
        <div className="search-actions">
          <button type="submit">Apply filters</button>
        </div>
      </form>

      <div className="live-bar">
        <p className={polling ? 'live-indicator on' : 'live-indicator'} role="status">
          <span aria-hidden="true" className="dot" />
          {polling
            ? `Live: new requests appear by themselves${updatedAt ? ` (checked ${updatedAt.toLocaleTimeString('en')})` : ''}.`
            : live
              ? 'Paused while this tab is hidden.'
              : 'Paused: press Resume to see new requests.'}
        </p>
        <button type="button" className="secondary" onClick={() => setLive((on) => !on)}>
          {live ? 'Pause live updates' : 'Resume live updates'}
        </button>
      </div>

      {open ? <LogEntry entry={open} onClose={() => setOpen(null)} /> : null}

      {entries === null ? (
        <p role="status">Loading the log…</p>
      ) : entries.length === 0 ? (
        <p>No request matches yet. Requests appear here about a second after they are answered.</p>
      ) : (
        <table className="keys request-log">
          <caption className="visually-hidden">API requests, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Status</th>
              <th scope="col">Request</th>
              <th scope="col">Made with</th>
              <th scope="col">Took</th>
              <th scope="col">Time</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <tr
                key={entry.id}
                className={open?.id === entry.id ? 'selected' : undefined}
                onClick={() => void openEntry(entry.id)}
              >
                <td data-label="Status">
                  <span className={`status-code status-${String(entry.status)[0]}xx`}>{entry.status}</span>
                </td>
                <td data-label="Request">
                  <button
                    type="button"
                    className="link-button request-link"
                    aria-label={`${entry.method} ${entry.path} ${entry.status}${entry.errorCode ? ` ${entry.errorCode}` : ''}`}
                    onClick={(event) => {
                      event.stopPropagation();
                      void openEntry(entry.id);
                    }}
                  >
                    <span className="method">{entry.method}</span> <code className="wrap">{entry.path}</code>
                  </button>
                </td>
                <td data-label="Made with">{madeWith(entry.credential)}</td>
                <td data-label="Took">{entry.durationMs} ms</td>
                <td data-label="Time">{dateTime.format(new Date(entry.createdAt))}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {next ? (
        <div className="actions">
          <button type="button" className="secondary" onClick={() => void older()}>
            Older requests
          </button>
        </div>
      ) : null}
    </section>
  );
}
