import { useEffect, useRef } from 'react';
import type { Credential, RequestLogDetail } from '../logs-api.ts';
import { dateTime } from './delivery-attempts.tsx';
import { HeaderList, PrettyBody } from './pretty-body.tsx';

/** Who made a request, in words. */
export function madeWith(credential: Credential | null): string {
  if (!credential) return '—';
  if (credential.kind === 'apiKey') {
    return credential.name ? `${credential.name} (${credential.prefix ?? 'key'}…)` : 'A deleted API key';
  }
  if (credential.kind === 'user') return credential.email ?? `Person #${credential.userId}`;
  return `OAuth client ${credential.clientId}`;
}

/** One request of the log: what it was, who made it, its headers and both bodies pretty-printed. */
export function LogEntry({ entry, onClose }: { entry: RequestLogDetail; onClose: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    void entry.id;
    heading.current?.focus();
  }, [entry.id]);
  return (
    <section className="card log-entry" aria-labelledby="log-entry-heading">
      <h2 id="log-entry-heading" ref={heading} tabIndex={-1}>
        <span className={`status-code status-${String(entry.status)[0]}xx`}>{entry.status}</span>{' '}
        {entry.method} <code className="wrap">{entry.path}</code>
      </h2>
      <dl className="facts">
        <dt>Time</dt>
        <dd>{dateTime.format(new Date(entry.createdAt))}</dd>
        <dt>Took</dt>
        <dd>{entry.durationMs} ms</dd>
        <dt>Made with</dt>
        <dd>{madeWith(entry.credential)}</dd>
        <dt>Request id</dt>
        <dd>
          <code className="wrap">{entry.requestId}</code>
        </dd>
        {entry.errorCode ? (
          <>
            <dt>Error code</dt>
            <dd>
              <code>{entry.errorCode}</code>
            </dd>
          </>
        ) : null}
        <dt>IP address</dt>
        <dd>{entry.clientAddress ?? '—'}</dd>
      </dl>
      {entry.query ? <PrettyBody title="Query" text={JSON.stringify(entry.query)} /> : null}
      <figure className="pretty-body">
        <figcaption>Request headers</figcaption>
        {Object.keys(entry.requestHeaders).length === 0 ? (
          <p className="hint">None kept.</p>
        ) : (
          <HeaderList headers={entry.requestHeaders} />
        )}
      </figure>
      <div className="bodies">
        <PrettyBody title="Request body" {...entry.requestBody} />
        <PrettyBody title="Response body" {...entry.responseBody} />
      </div>
      <div className="actions">
        <button type="button" className="secondary" onClick={onClose}>
          Close this request
        </button>
      </div>
    </section>
  );
}
