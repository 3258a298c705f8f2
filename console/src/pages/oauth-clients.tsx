import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { type Environment, type OAuthClient, oauthClients } from '../api.ts';
import { SecretOnce } from '../secret-once.tsx';

interface OAuthClientsProps {
  mayManage: boolean;
  environment: Environment;
  onFail: (error: unknown) => void;
}

const dateTime = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' });

/** Settings › Developers › OAuth clients: for machine clients that prefer short-lived tokens to a key. */
export function OAuthClients({ mayManage, environment, onFail }: OAuthClientsProps) {
  const [clients, setClients] = useState<OAuthClient[] | null>(null);
  const [created, setCreated] = useState<{ client: OAuthClient; secret: string } | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState('');

  const load = useCallback(async () => {
    try {
      setClients((await oauthClients.list(environment)).clients);
    } catch (caught) {
      onFail(caught);
    }
  }, [environment, onFail]);
  useEffect(() => {
    setClients(null);
    setCreated(null);
    void load();
  }, [load]);

  const create = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    setBusy(true);
    try {
      const answer = await oauthClients.create(environment, String(new FormData(form).get('name')).trim());
      setCreated({ client: answer.client, secret: answer.clientSecret });
      setStatus(`OAuth client “${answer.client.name}” created.`);
      form.reset();
      await load();
    } catch (caught) {
      onFail(caught);
    } finally {
      setBusy(false);
    }
  };
  const revoke = async (client: OAuthClient) => {
    setBusy(true);
    try {
      await oauthClients.revoke(environment, client.id);
      setConfirming(null);
      setStatus(`OAuth client “${client.name}” revoked with every token it was given.`);
      await load();
    } catch (caught) {
      onFail(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <h2>OAuth clients ({environment})</h2>
      <p className="lede">
        For systems that prefer short-lived tokens: a client exchanges its id and secret at{' '}
        <code>POST /v1/auth/oauth/token</code> for an access token valid one hour.
      </p>
      <p className="visually-hidden" role="status" aria-live="polite">
        {status}
      </p>
      {created ? (
        <SecretOnce
          id="new-client-secret"
          title={`Copy the secret of “${created.client.name}” now`}
          label="New client secret"
          secret={created.secret}
          onDone={() => setCreated(null)}
        >
          <p>
            Client id: <code>{created.client.clientId}</code>
          </p>
        </SecretOnce>
      ) : null}
      {mayManage ? (
        <form className="inline-form" onSubmit={create}>
          <label htmlFor="client-name">Client name</label>
          <input id="client-name" name="name" required maxLength={100} placeholder="e.g. SAP connector" />
          <button type="submit" disabled={busy}>
            Create client
          </button>
        </form>
      ) : null}
      {clients === null ? (
        <p role="status">Loading clients…</p>
      ) : clients.length === 0 ? (
        <p>No active {environment} OAuth clients.</p>
      ) : (
        <table className="keys">
          <caption className="visually-hidden">Active {environment} OAuth clients</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Client id</th>
              <th scope="col">Created</th>
              {mayManage ? (
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody>
            {clients.map((client) => (
              <tr key={client.id}>
                <td data-label="Name">{client.name}</td>
                <td data-label="Client id">
                  <code className="wrap">{client.clientId}</code>
                </td>
                <td data-label="Created">{dateTime.format(new Date(client.createdAt))}</td>
                {mayManage ? (
                  <td>
                    <div className="actions">
                      {confirming === client.id ? (
                        <>
                          <button
                            type="button"
                            className="danger"
                            disabled={busy}
                            onClick={() => revoke(client)}
                          >
                            Confirm revoking {client.name}
                          </button>
                          <button type="button" className="secondary" onClick={() => setConfirming(null)}>
                            Cancel
                          </button>
                        </>
                      ) : (
                        <button
                          type="button"
                          className="secondary"
                          aria-label={`Revoke ${client.name}`}
                          onClick={() => setConfirming(client.id)}
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
    </>
  );
}
