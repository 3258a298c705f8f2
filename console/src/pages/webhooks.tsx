import { type FormEvent, useEffect, useState } from 'react';
import { type Environment, type WebhookEndpoint, webhooks } from '../api.ts';
import { ActionsHeader } from '../components/actions-header.tsx';
import { ConfirmRemove } from '../components/confirm-remove.tsx';
import { ErrorAlert } from '../components/error-alert.tsx';
import { EventTypeChecks } from '../components/event-type-checks.tsx';
import { LiveStatus } from '../components/live-status.tsx';
import { useAction } from '../hooks/use-action.ts';
import { useFailure } from '../hooks/use-failure.ts';
import { useList } from '../hooks/use-list.ts';
import { usePageHeading } from '../hooks/use-page-heading.ts';
import { useRight, useRole } from '../rights.tsx';
import { SecretOnce } from '../secret-once.tsx';
import { DeadLetters } from './dead-letters.tsx';
import { Deliveries } from './deliveries.tsx';
import { EndpointEdit } from './endpoint-edit.tsx';
import { RotateSecret } from './rotate-secret.tsx';

interface WebhooksProps {
  environment: Environment;
  onSessionEnded: (error: unknown) => boolean;
}

const listEndpoints = async (environment: Environment) => (await webhooks.list(environment)).endpoints;

/** Settings › Webhooks: the environment's endpoints; owners and developers add, pause and remove them. */
export function Webhooks({ environment, onSessionEnded }: WebhooksProps) {
  const { error, setError, fail } = useFailure(onSessionEnded);
  const { items: endpoints, setItems: setEndpoints, load } = useList(listEndpoints, environment, fail);
  const { busy, status, act } = useAction({ load, fail, onStart: () => setError(null) });
  const [created, setCreated] = useState<{ url: string; secret: string; previousUntil?: string } | null>(
    null,
  );
  const [confirming, setConfirming] = useState<string | null>(null);
  const [logOf, setLogOf] = useState<WebhookEndpoint | null>(null);
  const [logRefresh, setLogRefresh] = useState(0);
  const [editing, setEditing] = useState<WebhookEndpoint | null>(null);
  const [rotating, setRotating] = useState<WebhookEndpoint | null>(null);
  // The event types come from the API (src/webhooks/event-types.ts is their one source).
  const [eventTypes, setEventTypes] = useState<string[] | null>(null);
  const heading = usePageHeading('Webhooks');
  const mayManage = useRight('manageWebhooks');
  const role = useRole();

  useEffect(() => {
    setEndpoints(null);
    setCreated(null);
    setLogOf(null);
    setEditing(null);
    setRotating(null);
    setError(null);
    void load();
  }, [load, setEndpoints, setError]);

  useEffect(() => {
    webhooks.eventTypes(environment).then((answer) => setEventTypes(answer.eventTypes), fail);
  }, [environment, fail]);

  const rotate = (endpoint: WebhookEndpoint, overlapSeconds: number) =>
    act(async () => {
      const rotated = await webhooks.rotateSecret(environment, endpoint.id, overlapSeconds);
      setRotating(null);
      setCreated({
        url: endpoint.url,
        secret: rotated.secret,
        ...(rotated.previousSecretExpiresAt ? { previousUntil: rotated.previousSecretExpiresAt } : {}),
      });
      return `The secret of ${endpoint.url} was rotated.`;
    });

  const sendTest = (endpoint: WebhookEndpoint) =>
    act(async () => {
      await webhooks.sendTest(environment, endpoint.id);
      setLogOf(endpoint);
      setLogRefresh((n) => n + 1);
      return `A test event is on its way to ${endpoint.url}: it shows in the log below.`;
    });

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
              Install the new secret in your receiver now: <code>service-signature</code> is signed with it
              from now on. <code>webhook-signature</code> also carries a signature with the previous secret
              until{' '}
              {new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' }).format(
                new Date(created.previousUntil),
              )}
              .
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
            <EventTypeChecks eventTypes={eventTypes} idPrefix="new-event" />
            <button type="submit" disabled={busy}>
              Add endpoint
            </button>
          </form>
        </>
      ) : (
        <p className="notice">
          Your role is <strong>{role}</strong>: you can see the endpoints; owners and developers change them.
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
                          aria-label={`Send test event to ${endpoint.url}`}
                          onClick={() => sendTest(endpoint)}
                        >
                          Send test event
                        </button>
                        <button
                          type="button"
                          className="secondary"
                          aria-label={`Edit ${endpoint.url}`}
                          onClick={() => {
                            setRotating(null);
                            setEditing(endpoint);
                          }}
                        >
                          Edit
                        </button>
                        <button
                          type="button"
                          className="secondary"
                          disabled={busy}
                          aria-label={`Rotate secret of ${endpoint.url}`}
                          onClick={() => {
                            setEditing(null);
                            setRotating(endpoint);
                          }}
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
      {editing ? (
        <EndpointEdit
          key={`edit-${editing.id}`}
          endpoint={editing}
          eventTypes={eventTypes}
          busy={busy}
          onCancel={() => setEditing(null)}
          onSave={(changes) =>
            act(async () => {
              const answer = await webhooks.update(environment, editing.id, changes);
              setEditing(null);
              return `${answer.endpoint.url} saved.`;
            })
          }
        />
      ) : null}
      {rotating ? (
        <RotateSecret
          key={`rotate-${rotating.id}`}
          endpoint={rotating}
          busy={busy}
          onCancel={() => setRotating(null)}
          onRotate={(overlapSeconds) => rotate(rotating, overlapSeconds)}
        />
      ) : null}
      {logOf ? (
        <Deliveries
          key={`log-${logOf.id}`}
          environment={environment}
          endpoint={logOf}
          mayManage={mayManage}
          refresh={logRefresh}
          onFail={fail}
          onClose={() => setLogOf(null)}
        />
      ) : null}
      {endpoints !== null ? (
        <DeadLetters environment={environment} endpoints={endpoints} mayManage={mayManage} onFail={fail} />
      ) : null}
    </section>
  );
}
