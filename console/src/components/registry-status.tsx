import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import type { Environment } from '../api.ts';
import { messageOf } from '../hooks/use-failure.ts';
import { usePolling } from '../hooks/use-polling.ts';
import { type Registration, records } from '../passports-api.ts';
import { CopyableValue } from './copy-button.tsx';
import { ErrorAlert } from './error-alert.tsx';

interface RegistryStatusProps {
  dppId: string;
  environment: Environment;
  /** Owners and developers may send a refused registration again (the API's managePassports right). */
  mayRetry: boolean;
  onFail: (caught: unknown) => void;
}

const date = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' });
const when = (iso: string) => date.format(new Date(iso));
/** While the registry has not answered, the status is read again this often. */
const POLL_MS = 1500;
const versions = (count: number) => (count === 1 ? '1 change' : `${count} changes`);

/**
 * The passport's registration in the EU DPP registry in plain words: registered (its number), being sent, or
 * refused with the registry's reason and a Retry (docs/registry.md). Read again while an answer is awaited.
 */
export function RegistryStatus({ dppId, environment, mayRetry, onFail }: RegistryStatusProps) {
  // undefined: loading; null: no registration yet.
  const [registration, setRegistration] = useState<Registration | null | undefined>(undefined);
  const [retrying, setRetrying] = useState(false);
  const [error, setError] = useState<string | null>(null);
  /** The refusal a retry answers: while it is still the latest, the retry is under way. */
  const retried = useRef<string | null>(null);

  const load = useCallback(async () => {
    try {
      const read = await records.registration(environment, dppId);
      setRegistration(read);
      if (retried.current !== null && read?.refusal?.refusedAt !== retried.current) {
        retried.current = null;
        setRetrying(false);
      }
    } catch (caught) {
      onFail(caught);
    }
  }, [environment, dppId, onFail]);
  useEffect(() => {
    void load();
  }, [load]);

  const waiting =
    registration === null ||
    retrying ||
    (registration !== undefined && registration.state !== 'refused' && registration.pendingVersions > 0);
  usePolling(load, POLL_MS, waiting);

  const retry = async () => {
    setError(null);
    setRetrying(true);
    retried.current = registration?.refusal?.refusedAt ?? null;
    try {
      await records.retryRegistration(environment, dppId);
    } catch (caught) {
      retried.current = null;
      setRetrying(false);
      setError(messageOf(caught, 'The registration could not be sent again.'));
    }
  };

  let body: ReactNode;
  if (registration === undefined) body = <p>Reading the registration…</p>;
  else if (registration === null)
    body = <p>Not registered yet: the passport goes to the EU registry with its first version.</p>;
  else if (registration.state === 'registered')
    body = (
      <>
        <p>
          <strong>Registered</strong> in the EU registry
          {registration.registeredAt ? ` on ${when(registration.registeredAt)}` : ''}.
        </p>
        <dl className="facts">
          <dt>Registration number</dt>
          <dd>
            <CopyableValue value={registration.registryId ?? '—'} label="registration number" />
          </dd>
          <dt>Latest version registered</dt>
          <dd>
            {registration.lastRegisteredVersion
              ? `Version ${registration.lastRegisteredVersion.number}`
              : '—'}
            {registration.pendingVersions > 0
              ? ` (${versions(registration.pendingVersions)} still being reported)`
              : ' (up to date)'}
          </dd>
        </dl>
      </>
    );
  else if (registration.state === 'pending')
    body = (
      <p>
        <strong>Being registered:</strong> waiting for the EU registry to acknowledge it (
        {versions(registration.pendingVersions)} to report). A registry that is down or not configured delays
        the registration; nothing is lost.
      </p>
    );
  else
    body = (
      <>
        <p className="error">
          <strong>Refused</strong> by the EU registry
          {registration.refusal ? ` on ${when(registration.refusal.refusedAt)}` : ''}:{' '}
          {registration.refusal?.reason ?? 'no reason given'}
        </p>
        {registration.refusal && registration.refusal.fields.length > 0 ? (
          <ul aria-label="What the registry found wrong">
            {registration.refusal.fields.map((field) => (
              <li key={field.path}>
                <code>{field.path}</code>: {field.message}
              </li>
            ))}
          </ul>
        ) : null}
        <p className="hint">
          Correct what the registry names (the company’s economic operator id, its EORI, is set in the{' '}
          <a href="/docs#/company/updateCompanySettings">company settings</a>), then send the registration
          again. Later versions of this passport wait behind it.
        </p>
        {retrying ? (
          <p role="status">Sent again: waiting for the registry’s answer…</p>
        ) : mayRetry ? (
          <button type="button" onClick={retry}>
            Retry the registration
          </button>
        ) : (
          <p className="notice">Only an owner or a developer can send it again.</p>
        )}
      </>
    );

  return (
    <div className="record-status" aria-live="polite">
      <h3>EU registry</h3>
      {body}
      <ErrorAlert error={error} />
    </div>
  );
}
