import { type FormEvent, useEffect, useState } from 'react';
import { type ApiKey, apiKeys, type Environment } from '../api.ts';
import { ActionsHeader } from '../components/actions-header.tsx';
import { ErrorAlert } from '../components/error-alert.tsx';
import { LiveStatus } from '../components/live-status.tsx';
import { RevokeCell } from '../components/revoke-cell.tsx';
import { useAction } from '../hooks/use-action.ts';
import { useFailure } from '../hooks/use-failure.ts';
import { useList } from '../hooks/use-list.ts';
import { usePageHeading } from '../hooks/use-page-heading.ts';
import { NotAllowed, useRight } from '../rights.tsx';
import { linkHandler } from '../router.ts';
import { SecretOnce } from '../secret-once.tsx';
import { OAuthClients } from './oauth-clients.tsx';

interface DevelopersProps {
  environment: Environment;
  /** True when the error meant the session ended (the app then shows sign-in). */
  onSessionEnded: (error: unknown) => boolean;
}

const dateTime = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' });
const when = (iso: string | null) => (iso ? dateTime.format(new Date(iso)) : 'Never');
const listKeys = async (environment: Environment) => (await apiKeys.list(environment)).apiKeys;

/** Settings › Developers: the company's API keys in the chosen environment. */
export function Developers({ environment, onSessionEnded }: DevelopersProps) {
  const { error, setError, fail } = useFailure(onSessionEnded);
  const { items: keys, setItems: setKeys, load } = useList(listKeys, environment, fail);
  const { busy, status, act } = useAction({ load, fail, onStart: () => setError(null) });
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const heading = usePageHeading('Developers');
  const mayManage = useRight('manageKeys');

  useEffect(() => {
    setKeys(null);
    setCreated(null);
    setError(null);
    void load();
  }, [load, setKeys, setError]);

  const create = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const name = String(new FormData(form).get('name')).trim();
    return act(async () => {
      const answer = await apiKeys.create(environment, name);
      setCreated({ name: answer.apiKey.name, key: answer.key });
      form.reset();
      return `Key “${answer.apiKey.name}” created.`;
    });
  };
  const revoke = (key: ApiKey) =>
    act(async () => {
      await apiKeys.revoke(environment, key.id);
      setConfirming(null);
      return `Key “${key.name}” revoked: requests with it are refused from now on.`;
    });

  return (
    <section aria-labelledby="developers-heading">
      <h1 id="developers-heading" ref={heading} tabIndex={-1}>
        Developers
      </h1>
      <p className="lede">
        API keys let your systems call the service. Each key works in one environment only: you are seeing the{' '}
        <strong>{environment}</strong> keys
        {environment === 'test' ? ' (they start with sk_test_)' : ' (sk_live_)'}. What they sent and got back
        is in the{' '}
        <a href="/console/settings/developers/logs" onClick={linkHandler('/settings/developers/logs')}>
          request log
        </a>
        .
      </p>
      <LiveStatus status={status} className="visually-hidden" />
      <ErrorAlert error={error} />

      {created ? (
        <SecretOnce
          id="new-key"
          title={`Copy your new key “${created.name}” now`}
          label="New API key"
          secret={created.key}
          onDone={() => setCreated(null)}
        />
      ) : null}

      <h2>Create a {environment} key</h2>
      {mayManage ? (
        <form className="inline-form" onSubmit={create}>
          <label htmlFor="key-name">Key name</label>
          <input id="key-name" name="name" required maxLength={100} placeholder="e.g. ERP integration" />
          <button type="submit" disabled={busy}>
            Create key
          </button>
        </form>
      ) : (
        <NotAllowed action="create or revoke keys" />
      )}

      <h2>Active {environment} keys</h2>
      {keys === null ? (
        <p role="status">Loading keys…</p>
      ) : keys.length === 0 ? (
        <p>No active {environment} keys yet.</p>
      ) : (
        <table className="keys">
          <caption className="visually-hidden">Active {environment} API keys</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Key</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              {mayManage ? <ActionsHeader /> : null}
            </tr>
          </thead>
          <tbody>
            {keys.map((key) => (
              <tr key={key.id}>
                <td data-label="Name">{key.name}</td>
                <td data-label="Key">
                  <code>{key.prefix}…</code>
                </td>
                <td data-label="Created">{when(key.createdAt)}</td>
                <td data-label="Last used">{when(key.lastUsedAt)}</td>
                {mayManage ? (
                  <RevokeCell
                    name={key.name}
                    confirming={confirming === key.id}
                    busy={busy}
                    onAsk={() => setConfirming(key.id)}
                    onCancel={() => setConfirming(null)}
                    onRevoke={() => revoke(key)}
                  />
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <OAuthClients mayManage={mayManage} environment={environment} onFail={fail} />
    </section>
  );
}
