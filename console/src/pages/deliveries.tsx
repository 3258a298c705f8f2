import { useCallback, useEffect, useRef, useState } from 'react';
import {
  DELIVERY_PAGE,
  type Environment,
  type WebhookDelivery,
  type WebhookEndpoint,
  webhooks,
} from '../api.ts';
import { DeliveryTable } from '../components/delivery-table.tsx';
import { LiveStatus } from '../components/live-status.tsx';
import { usePages } from '../hooks/use-pages.ts';
import { usePolling } from '../hooks/use-polling.ts';

/** How often an open log reads its newest deliveries. */
const POLL_MS = 3_000;

interface DeliveriesProps {
  environment: Environment;
  endpoint: WebhookEndpoint;
  /** Owners and developers replay dead letters from the log. */
  mayManage: boolean;
  /** Changes when the log should read again (a test event was just sent). */
  refresh: number;
  onFail: (error: unknown) => void;
  onClose: () => void;
}

/** The delivery log of one endpoint, newest first, page by page: attempts, last answer, next retry, replay. */
export function Deliveries({ environment, endpoint, mayManage, refresh, onFail, onClose }: DeliveriesProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);
  const fetchPage = useCallback(
    (after?: string) => webhooks.deliveries(environment, endpoint.id, after),
    [environment, endpoint.id],
  );
  const { items: deliveries, hasMore, loading, reload, more } = usePages(fetchPage, onFail);
  useEffect(() => {
    heading.current?.focus();
  }, []);
  useEffect(() => {
    void refresh;
    void reload();
  }, [reload, refresh]);
  // The open log follows new deliveries and attempts by itself (while only its newest page is shown).
  const polling = usePolling(
    () => (busy ? undefined : reload()),
    POLL_MS,
    (deliveries?.length ?? 0) <= DELIVERY_PAGE,
  );

  const replay = async (delivery: WebhookDelivery) => {
    setBusy(true);
    try {
      await webhooks.replay(environment, delivery.id);
      setStatus(`Replaying ${delivery.eventType}: a fresh schedule of attempts started.`);
      await reload();
    } catch (caught) {
      onFail(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card log" aria-labelledby="deliveries-heading">
      <h2 id="deliveries-heading" ref={heading} tabIndex={-1}>
        Deliveries to <code className="wrap">{endpoint.url}</code>
      </h2>
      <LiveStatus status={status} className="success" />
      <p className={polling ? 'live-indicator on' : 'live-indicator'}>
        <span aria-hidden="true" className="dot" />
        {polling
          ? 'Live: new deliveries and attempts appear by themselves.'
          : 'Paused while the tab is hidden or older deliveries are shown: press Refresh the log.'}
      </p>
      {deliveries === null ? (
        <p role="status">Loading deliveries…</p>
      ) : deliveries.length === 0 ? (
        <p>No deliveries yet: they appear as events happen.</p>
      ) : (
        <DeliveryTable
          caption={`Deliveries to ${endpoint.url}, newest first`}
          deliveries={deliveries}
          busy={busy}
          {...(mayManage ? { onReplay: replay } : {})}
        />
      )}
      <div className="actions">
        {hasMore ? (
          <button type="button" className="secondary" disabled={loading} onClick={() => void more()}>
            Older deliveries
          </button>
        ) : null}
        <button type="button" className="secondary" disabled={loading} onClick={() => void reload()}>
          Refresh the log
        </button>
        <button type="button" className="secondary" onClick={onClose}>
          Close the log
        </button>
      </div>
    </section>
  );
}
