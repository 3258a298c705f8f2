import { type FormEvent, useEffect, useState } from 'react';
import { type Environment, type OAuthClient, oauthClients } from '../api.ts';
import { ActionsHeader } from '../components/actions-header.tsx';
import { LiveStatus } from '../components/live-status.tsx';
import { RevokeCell } from '../components/revoke-cell.tsx';
import { useAction } from '../hooks/use-action.ts';
import { useList } from '../hooks/use-list.ts';
import { SecretOnce } from '../secret-once.tsx';

interface OAuthClientsProps {
  mayManage: boolean;
  environment: Environment;
  onFail: (error: unknown) => void;
}

const dateTime = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' });
const listClients = async (environment: Environment) => (await oauthClients.list(environment)).clients;

/** Settings › Developers › OAuth clients: for machine clients that prefer short-lived tokens to a key. */
export function OAuthClients({ mayManage, environment, onFail }: OAuthClientsProps) {
  const { items: clients, setItems: setClients, load } = useList(listClients, environment, onFail);
  const { busy, status, act } = useAction({ load, fail: onFail });
  const [created, setCreated] = useState<{ client: OAuthClient; secret: string } | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);

  useEffect(() => {
    setClients(null);
    setCreated(null);
    void load();
  }, [load, setClients]);

  const create = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    return act(async () => {
      const answer = await oauthClients.create(environment, String(new FormData(form).get('name')).trim());
      setCreated({ client: answer.client, secret: answer.clientSecret });
      form.reset();
      return `OAuth client “${answer.client.name}” created.`;
    });
  };
  const revoke = (client: OAuthClient) =>
    act(async () => {
      await oauthClients.revoke(environment, client.id);
      setConfirming(null);
      return `OAuth client “${client.name}” revoked with every token it was given.`;
    });

  return (
    <>
      <h2>OAuth clients ({environment})</h2>
      <p className="lede">
        For systems that prefer short-lived tokens: a client exchanges its id and secret at{' '}
        <code>POST /v1/auth/oauth/token</code> for an access token valid one hour.
      </p>
      <LiveStatus status={status} className="visually-hidden" />
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
              {mayManage ? <ActionsHeader /> : null}
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
                  <RevokeCell
                    name={client.name}
                    confirming={confirming === client.id}
                    busy={busy}
                    onAsk={() => setConfirming(client.id)}
                    onCancel={() => setConfirming(null)}
                    onRevoke={() => revoke(client)}
                  />
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
