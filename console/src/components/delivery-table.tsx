import { Fragment, useState } from 'react';
import type { WebhookDelivery } from '../api.ts';
import { ActionsHeader } from './actions-header.tsx';
import { DELIVERY_STATUS, DeliveryAttempts, dateTime, lastAnswer } from './delivery-attempts.tsx';

interface DeliveryTableProps {
  caption: string;
  deliveries: WebhookDelivery[];
  /** The endpoint column's text (the dead-letter queue spans endpoints); none: no endpoint column. */
  endpointOf?: (delivery: WebhookDelivery) => string;
  /** Replay a dead letter (owners and developers); none: no replay buttons. */
  onReplay?: (delivery: WebhookDelivery) => void;
  busy: boolean;
}

/** Deliveries with their last answer and next retry; each opens to its attempts, dead ones may be replayed. */
export function DeliveryTable({ caption, deliveries, endpointOf, onReplay, busy }: DeliveryTableProps) {
  const [open, setOpen] = useState<Set<string>>(new Set());
  const toggle = (id: string) =>
    setOpen((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const columns = endpointOf ? 8 : 7;
  return (
    <table className="keys deliveries">
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Event</th>
          {endpointOf ? <th scope="col">Endpoint</th> : null}
          <th scope="col">Status</th>
          <th scope="col">Attempts</th>
          <th scope="col">Last answer</th>
          <th scope="col">Next retry</th>
          <th scope="col">Created</th>
          <ActionsHeader />
        </tr>
      </thead>
      <tbody>
        {deliveries.map((delivery) => (
          <Fragment key={delivery.id}>
            <tr>
              <td data-label="Event">
                <code>{delivery.eventType}</code>
              </td>
              {endpointOf ? (
                <td data-label="Endpoint">
                  <code className="wrap">{endpointOf(delivery)}</code>
                </td>
              ) : null}
              <td data-label="Status">{DELIVERY_STATUS[delivery.status]}</td>
              <td data-label="Attempts">{delivery.attemptCount}</td>
              <td data-label="Last answer">{lastAnswer(delivery)}</td>
              <td data-label="Next retry">
                {delivery.nextAttemptAt ? dateTime.format(new Date(delivery.nextAttemptAt)) : '—'}
              </td>
              <td data-label="Created">{dateTime.format(new Date(delivery.createdAt))}</td>
              <td>
                <div className="actions">
                  <button
                    type="button"
                    className="secondary"
                    aria-expanded={open.has(delivery.id)}
                    aria-controls={`attempts-${delivery.id}`}
                    aria-label={`Attempts of ${delivery.eventType} ${delivery.eventId.slice(0, 8)}`}
                    onClick={() => toggle(delivery.id)}
                  >
                    Attempts
                  </button>
                  {onReplay && delivery.status === 'dead' ? (
                    <button
                      type="button"
                      disabled={busy}
                      aria-label={`Replay ${delivery.eventType} ${delivery.eventId.slice(0, 8)}`}
                      onClick={() => onReplay(delivery)}
                    >
                      Replay
                    </button>
                  ) : null}
                </div>
              </td>
            </tr>
            {open.has(delivery.id) ? (
              <tr className="detail">
                <td colSpan={columns}>
                  <DeliveryAttempts delivery={delivery} />
                </td>
              </tr>
            ) : null}
          </Fragment>
        ))}
      </tbody>
    </table>
  );
}
