import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import { type ApiKey, apiKeys, type Environment, type SessionUser } from '../api.ts';
import { SecretOnce } from '../secret-once.tsx';
import { OAuthClients } from './oauth-clients.tsx';

interface DevelopersProps {
  user: SessionUser;
  environment: Environment;
  /** True when the error meant the session ended (the app then shows sign-in). */
  onSessionEnded: (error: unknown) => boolean;
}

const dateTime = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' });
const when = (iso: string | null) => (iso ? dateTime.format(new Date(iso)) : 'Never');

/** Settings › Developers: the company's API keys in the chosen environment. */
export function Developers({ user, environment, onSessionEnded }: DevelopersProps) {
  const [keys, setKeys] = useState<ApiKey[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const mayManage = user.role === 'owner' || user.role === 'developer';

  const fail = useCallback(
    (caught: unknown) => {
      if (!onSessionEnded(caught))
        setError(caught instanceof Error ? caught.message : 'Something went wrong.');
    },
    [onSessionEnded],
  );
  const load = useCallback(async () => {
    try {
      setKeys((await apiKeys.list(environment)).apiKeys);
    } catch (caught) {
      fail(caught);
    }
  }, [environment, fail]);

  useEffect(() => {
    document.title = 'Developers · DPP Console';
    heading.current?.focus();
  }, []);
  useEffect(() => {
    setKeys(null);
    setCreated(null);
    setError(null);
    void load();
  }, [load]);

  const create = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const name = String(new FormData(form).get('name')).trim();
    setBusy(true);
    setError(null);
    try {
      const answer = await apiKeys.create(environment, name);
      setCreated({ name: answer.apiKey.name, key: answer.key });
      setStatus(`Key “${answer.apiKey.name}” created.`);
      form.reset();
      await load();
    } catch (caught) {
      fail(caught);
    } finally {
      setBusy(false);
    }
  };
  const revoke = async (key: ApiKey) => {
    setBusy(true);
    setError(null);
    try {
      await apiKeys.revoke(environment, key.id);
      setConfirming(null);
      setStatus(`Key “${key.name}” revoked: requests with it are refused from now on.`);
      await load();
    } catch (caught) {
      fail(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="developers-heading">
      <h1 id="developers-heading" ref={heading} tabIndex={-1}>
        Developers
      </h1>
      <p className="lede">
        API keys let your systems call the service. Each key works in one environment only: you are seeing the{' '}
        <strong>{environment}</strong> keys
        {environment === 'test' ? ' (they start with sk_test_)' : ' (sk_live_)'}.
      </p>
      <p className="visually-hidden" role="status" aria-live="polite">
        {status}
      </p>
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}

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
        <p className="notice">
          Your role is <strong>viewer</strong>: you can see the keys, but only an owner or a developer can
          create or revoke them.
        </p>
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
              {mayManage ? (
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              ) : null}
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
                  <td>
                    <div className="actions">
                      {confirming === key.id ? (
                        <>
                          <button
                            type="button"
                            className="danger"
                            disabled={busy}
                            onClick={() => revoke(key)}
                          >
                            Confirm revoking {key.name}
                          </button>
                          <button type="button" className="secondary" onClick={() => setConfirming(null)}>
                            Cancel
                          </button>
                        </>
                      ) : (
                        <button
                          type="button"
                          className="secondary"
                          aria-label={`Revoke ${key.name}`}
                          onClick={() => setConfirming(key.id)}
                        >
                          Revoke
                        </button>
                      )}
                    </div>
                  </td>
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
