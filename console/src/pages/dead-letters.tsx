import { type FormEvent, useCallback, useEffect } from 'react';
import { type Environment, type WebhookDelivery, type WebhookEndpoint, webhooks } from '../api.ts';
import { DeliveryTable } from '../components/delivery-table.tsx';
import { LiveStatus } from '../components/live-status.tsx';
import { useAction } from '../hooks/use-action.ts';
import { usePages } from '../hooks/use-pages.ts';

interface DeadLettersProps {
  environment: Environment;
  endpoints: WebhookEndpoint[];
  mayManage: boolean;
  onFail: (error: unknown) => void;
}

/** `<input type="datetime-local">` holds local time without a zone: the API takes ISO 8601 with one. */
const isoOf = (local: string) => new Date(local).toISOString();

/**
 * The environment's dead-letter queue (deliveries whose six attempts all failed), oldest first: replay one, or
 * every dead letter of a time range (of one endpoint or all).
 */
export function DeadLetters({ environment, endpoints, mayManage, onFail }: DeadLettersProps) {
  const fetchPage = useCallback(
    (after?: string) => webhooks.deadLetters(environment, { after }),
    [environment],
  );
  const { items, hasMore, loading, reload, more } = usePages(fetchPage, onFail);
  useEffect(() => {
    void reload();
  }, [reload]);
  const urlOf = (delivery: WebhookDelivery) =>
    endpoints.find((endpoint) => endpoint.id === delivery.endpointId)?.url ?? 'a deleted endpoint';

  const { busy, status, act: run } = useAction({ load: reload, fail: onFail, clearStatus: true });

  const replayRange = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const endpointId = String(data.get('endpointId') ?? '');
    return run(async () => {
      const result = await webhooks.replayRange(environment, {
        from: isoOf(String(data.get('from'))),
        to: isoOf(String(data.get('to'))),
        ...(endpointId ? { endpointId } : {}),
      });
      return (
        `${result.replayed} dead ${result.replayed === 1 ? 'letter' : 'letters'} replayed` +
        (result.skipped ? `, ${result.skipped} skipped (endpoint deleted or disabled)` : '') +
        (result.hasMore ? '; more remain in the range: replay it again.' : '.')
      );
    });
  };

  return (
    <section aria-labelledby="dead-letters-heading">
      <h2 id="dead-letters-heading">Dead-letter queue</h2>
      <p className="hint">
        Deliveries whose six attempts all failed, oldest first. A replay starts a fresh schedule of attempts.
      </p>
      <LiveStatus status={status} className="success" />
      {items === null ? (
        <p role="status">Loading dead letters…</p>
      ) : items.length === 0 ? (
        <p>No dead letters in {environment}.</p>
      ) : (
        <DeliveryTable
          caption={`Dead letters of ${environment}, oldest first`}
          deliveries={items}
          endpointOf={urlOf}
          busy={busy}
          {...(mayManage
            ? {
                onReplay: (delivery: WebhookDelivery) =>
                  void run(async () => {
                    await webhooks.replay(environment, delivery.id);
                    return `Replaying ${delivery.eventType} to ${urlOf(delivery)}.`;
                  }),
              }
            : {})}
        />
      )}
      <div className="actions">
        {hasMore ? (
          <button type="button" className="secondary" disabled={loading} onClick={() => void more()}>
            More dead letters
          </button>
        ) : null}
        <button type="button" className="secondary" disabled={loading} onClick={() => void reload()}>
          Refresh the queue
        </button>
      </div>
      {mayManage ? (
        <>
          <h3 id="replay-range-heading">Replay a range</h3>
          <form className="inline-form" onSubmit={replayRange} aria-labelledby="replay-range-heading">
            <div className="field">
              <label htmlFor="replay-from">Dead-lettered from</label>
              <input id="replay-from" name="from" type="datetime-local" step="1" required />
            </div>
            <div className="field">
              <label htmlFor="replay-to">until (not included)</label>
              <input id="replay-to" name="to" type="datetime-local" step="1" required />
            </div>
            <div className="field">
              <label htmlFor="replay-endpoint">Endpoint</label>
              <select id="replay-endpoint" name="endpointId" defaultValue="">
                <option value="">All endpoints</option>
                {endpoints.map((endpoint) => (
                  <option key={endpoint.id} value={endpoint.id}>
                    {endpoint.url}
                  </option>
                ))}
              </select>
            </div>
            <button type="submit" disabled={busy}>
              Replay range
            </button>
          </form>
        </>
      ) : null}
    </section>
  );
}
