import { useEffect, useRef, useState } from 'react';
import { type Environment, type WebhookDelivery, type WebhookEndpoint, webhooks } from '../api.ts';

interface DeliveriesProps {
  environment: Environment;
  endpoint: WebhookEndpoint;
  onFail: (error: unknown) => void;
  onClose: () => void;
}

const dateTime = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'medium' });
const STATUS: Record<WebhookDelivery['status'], string> = {
  pending: 'Pending',
  succeeded: 'Delivered',
  dead: 'Dead letter',
  stopped: 'Stopped',
};

/** The delivery log of one endpoint: the newest 50 deliveries, their attempts, last answer and next retry. */
export function Deliveries({ environment, endpoint, onFail, onClose }: DeliveriesProps) {
  const [deliveries, setDeliveries] = useState<WebhookDelivery[] | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
    webhooks.deliveries(environment, endpoint.id).then((answer) => setDeliveries(answer.deliveries), onFail);
  }, [environment, endpoint.id, onFail]);
  return (
    <section className="card log" aria-labelledby="deliveries-heading">
      <h2 id="deliveries-heading" ref={heading} tabIndex={-1}>
        Deliveries to <code className="wrap">{endpoint.url}</code>
      </h2>
      {deliveries === null ? (
        <p role="status">Loading deliveries…</p>
      ) : deliveries.length === 0 ? (
        <p>No deliveries yet: they appear as events happen.</p>
      ) : (
        <table className="keys">
          <caption className="visually-hidden">Newest deliveries to {endpoint.url}</caption>
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col">Status</th>
              <th scope="col">Attempts</th>
              <th scope="col">Last answer</th>
              <th scope="col">Next retry</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {deliveries.map((delivery) => (
              <tr key={delivery.id}>
                <td data-label="Event">
                  <code>{delivery.eventType}</code>
                </td>
                <td data-label="Status">{STATUS[delivery.status]}</td>
                <td data-label="Attempts">{delivery.attemptCount}</td>
                <td data-label="Last answer">
                  {delivery.lastStatusCode !== null
                    ? `HTTP ${delivery.lastStatusCode}`
                    : (delivery.lastError ?? '—')}
                </td>
                <td data-label="Next retry">
                  {delivery.nextAttemptAt ? dateTime.format(new Date(delivery.nextAttemptAt)) : '—'}
                </td>
                <td data-label="Created">{dateTime.format(new Date(delivery.createdAt))}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <button type="button" className="secondary" onClick={onClose}>
        Close the log
      </button>
    </section>
  );
}
