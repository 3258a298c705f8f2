import { type FormEvent, useEffect, useState } from 'react';
import { type Environment, type SessionUser, type WebhookEndpoint, webhooks } from '../api.ts';
import { ActionsHeader } from '../components/actions-header.tsx';
import { ConfirmRemove } from '../components/confirm-remove.tsx';
import { ErrorAlert } from '../components/error-alert.tsx';
import { LiveStatus } from '../components/live-status.tsx';
import { useAction } from '../hooks/use-action.ts';
import { useFailure } from '../hooks/use-failure.ts';
import { useList } from '../hooks/use-list.ts';
import { usePageHeading } from '../hooks/use-page-heading.ts';
import { SecretOnce } from '../secret-once.tsx';
import { Deliveries } from './deliveries.tsx';

interface WebhooksProps {
  user: SessionUser;
  environment: Environment;
  onSessionEnded: (error: unknown) => boolean;
}

/** The spec's event types (src/events/event-types.ts; the API refuses any other). */
const EVENT_TYPES = [
  'asset.initialized',
  'asset.minted',
  'asset.customs_cleared',
  'asset.shipped',
  'asset.delivered',
  'asset.sold',
  'asset.transferred',
  'asset.resold',
  'asset.recycled',
];
const listEndpoints = async (environment: Environment) => (await webhooks.list(environment)).endpoints;

/** Settings › Webhooks: the environment's endpoints; owners and developers add, pause and remove them. */
export function Webhooks({ user, environment, onSessionEnded }: WebhooksProps) {
  const { error, setError, fail } = useFailure(onSessionEnded);
  const { items: endpoints, setItems: setEndpoints, load } = useList(listEndpoints, environment, fail);
  const { busy, status, act } = useAction({ load, fail, onStart: () => setError(null) });
  const [created, setCreated] = useState<{ url: string; secret: string; previousUntil?: string } | null>(
    null,
  );
  const [confirming, setConfirming] = useState<string | null>(null);
  const [logOf, setLogOf] = useState<WebhookEndpoint | null>(null);
  const heading = usePageHeading('Webhooks');
  const mayManage = user.role === 'owner' || user.role === 'developer';

  useEffect(() => {
    setEndpoints(null);
    setCreated(null);
    setLogOf(null);
    setError(null);
    void load();
  }, [load, setEndpoints, setError]);

  const create = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const description = String(data.get('description') ?? '').trim();
    return act(async () => {
      const answer = await webhooks.create(environment, {
        url: String(data.get('url')).trim(),
        ...(description ? { description } : {}),
        eventTypes: data.getAll('eventTypes').map(String),
      });
      setCreated({ url: answer.endpoint.url, secret: answer.secret });
      form.reset();
      return `Endpoint ${answer.endpoint.url} added.`;
    });
  };

  return (
    <section aria-labelledby="webhooks-heading">
      <h1 id="webhooks-heading" ref={heading} tabIndex={-1}>
        Webhooks
      </h1>
      <p className="lede">
        Your systems hear about passports as things happen: each event is posted, signed with the endpoint’s
        secret, to every <strong>{environment}</strong> endpoint that subscribes to it.
      </p>
      <LiveStatus status={status} className="success" />
      <ErrorAlert error={error} />
      {created ? (
        <SecretOnce
          id="new-signing-secret"
          title={`Copy the signing secret of ${created.url} now`}
          label="New signing secret"
          secret={created.secret}
          onDone={() => setCreated(null)}
        >
          {created.previousUntil ? (
            <p>
              The previous secret keeps signing too until{' '}
              {new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' }).format(
                new Date(created.previousUntil),
              )}
              : switch your receiver over before then.
            </p>
          ) : null}
        </SecretOnce>
      ) : null}

      {mayManage ? (
        <>
          <h2>Add a {environment} endpoint</h2>
          <form onSubmit={create} className="stacked-form">
            <label htmlFor="endpoint-url">URL</label>
            <input
              id="endpoint-url"
              name="url"
              type="url"
              required
              placeholder="https://example.com/dpp-events"
            />
            <label htmlFor="endpoint-description">Description (optional)</label>
            <input id="endpoint-description" name="description" maxLength={500} />
            <fieldset>
              <legend>Event types (none ticked: every type)</legend>
              <div className="checks">
                {EVENT_TYPES.map((type) => (
                  <label key={type} className="check">
                    <input type="checkbox" name="eventTypes" value={type} /> <code>{type}</code>
                  </label>
                ))}
              </div>
            </fieldset>
            <button type="submit" disabled={busy}>
              Add endpoint
            </button>
          </form>
        </>
      ) : (
        <p className="notice">
          Your role is <strong>{user.role}</strong>: you can see the endpoints; owners and developers change
          them.
        </p>
      )}

      <h2>{environment === 'test' ? 'Test' : 'Live'} endpoints</h2>
      {endpoints === null ? (
        <p role="status">Loading endpoints…</p>
      ) : endpoints.length === 0 ? (
        <p>No {environment} webhook endpoints.</p>
      ) : (
        <table className="keys">
          <caption className="visually-hidden">The {environment} webhook endpoints</caption>
          <thead>
            <tr>
              <th scope="col">URL</th>
              <th scope="col">Events</th>
              <th scope="col">Status</th>
              <ActionsHeader />
            </tr>
          </thead>
          <tbody>
            {endpoints.map((endpoint) => (
              <tr key={endpoint.id}>
                <td data-label="URL">
                  <code className="wrap">{endpoint.url}</code>
                  {endpoint.description ? <div className="hint">{endpoint.description}</div> : null}
                </td>
                <td data-label="Events">
                  {endpoint.eventTypes.length === 0 ? 'All' : endpoint.eventTypes.join(', ')}
                </td>
                <td data-label="Status">
                  {endpoint.enabled
                    ? 'Enabled'
                    : `Disabled${endpoint.disabledReason ? `: ${endpoint.disabledReason}` : ''}`}
                </td>
                <td>
                  <div className="actions">
                    <button
                      type="button"
                      className="secondary"
                      aria-label={`Deliveries to ${endpoint.url}`}
                      onClick={() => setLogOf(endpoint)}
                    >
                      Deliveries
                    </button>
                    {mayManage ? (
                      <>
                        <button
                          type="button"
                          className="secondary"
                          disabled={busy}
                          aria-label={`Rotate secret of ${endpoint.url}`}
                          onClick={() =>
                            act(async () => {
                              const rotated = await webhooks.rotateSecret(environment, endpoint.id);
                              setCreated({
                                url: endpoint.url,
                                secret: rotated.secret,
                                ...(rotated.previousSecretExpiresAt
                                  ? { previousUntil: rotated.previousSecretExpiresAt }
                                  : {}),
                              });
                              return `The secret of ${endpoint.url} was rotated.`;
                            })
                          }
                        >
                          Rotate secret
                        </button>
                        <button
                          type="button"
                          className="secondary"
                          disabled={busy}
                          aria-label={`${endpoint.enabled ? 'Disable' : 'Enable'} ${endpoint.url}`}
                          onClick={() =>
                            act(async () => {
                              await webhooks.setEnabled(environment, endpoint.id, !endpoint.enabled);
                              return `${endpoint.url} ${endpoint.enabled ? 'disabled' : 'enabled'}.`;
                            })
                          }
                        >
                          {endpoint.enabled ? 'Disable' : 'Enable'}
                        </button>
                        <ConfirmRemove
                          name={endpoint.url}
                          verb="Delete"
                          doing="deleting"
                          confirming={confirming === endpoint.id}
                          busy={busy}
                          onAsk={() => setConfirming(endpoint.id)}
                          onCancel={() => setConfirming(null)}
                          onConfirm={() =>
                            act(async () => {
                              await webhooks.remove(environment, endpoint.id);
                              setConfirming(null);
                              return `${endpoint.url} deleted.`;
                            })
                          }
                        />
                      </>
                    ) : null}
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {logOf ? (
        <Deliveries environment={environment} endpoint={logOf} onFail={fail} onClose={() => setLogOf(null)} />
      ) : null}
    </section>
  );
}
