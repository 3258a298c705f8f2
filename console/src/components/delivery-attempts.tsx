import '../logs.css';
import type { WebhookAttempt, WebhookDelivery } from '../api.ts';
import { HeaderList, PrettyBody } from './pretty-body.tsx';

/** What the deliveries API adds to each delivery and attempt: what was sent. */
type SentDelivery = WebhookDelivery & { payload?: string | null };
type SentAttempt = WebhookAttempt & { requestHeaders?: Record<string, string> | null };

export const dateTime = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'medium' });

export const DELIVERY_STATUS: Record<WebhookDelivery['status'], string> = {
  pending: 'Pending',
  succeeded: 'Delivered',
  dead: 'Dead letter',
  stopped: 'Stopped',
};

/** What the receiver answered last: its HTTP status, else the error (timeout, refused, …). */
export const lastAnswer = (delivery: WebhookDelivery) =>
  delivery.lastStatusCode !== null ? `HTTP ${delivery.lastStatusCode}` : (delivery.lastError ?? '—');

const answerOf = (attempt: WebhookAttempt) =>
  attempt.statusCode !== null ? `HTTP ${attempt.statusCode}` : (attempt.error ?? '—');

/** The headers one attempt was sent with, signatures included (the endpoint's secret is never sent). */
function SentHeaders({ attempt, open }: { attempt: SentAttempt; open: boolean }) {
  if (Object.keys(attempt.requestHeaders ?? {}).length === 0) return null;
  return (
    <details className="sent-headers" open={open}>
      <summary>Headers sent with attempt {attempt.attempt}</summary>
      <HeaderList headers={attempt.requestHeaders ?? {}} />
    </details>
  );
}

/**
 * Every attempt of one delivery: when, what the receiver answered, how long it took, the start of its body;
 * and what was sent: the payload (the same bytes every attempt) and each attempt's headers.
 */
export function DeliveryAttempts({ delivery }: { delivery: SentDelivery }) {
  const attempts = delivery.attempts as SentAttempt[];
  return (
    <div className="attempts" id={`attempts-${delivery.id}`}>
      <p>
        Event <code className="wrap">{delivery.eventId}</code>
        {delivery.status === 'pending' && delivery.nextAttemptAt
          ? `; next retry ${dateTime.format(new Date(delivery.nextAttemptAt))}`
          : ''}
        {delivery.deadLetteredAt
          ? `; dead-lettered ${dateTime.format(new Date(delivery.deadLetteredAt))}`
          : ''}
        {delivery.succeededAt ? `; delivered ${dateTime.format(new Date(delivery.succeededAt))}` : ''}.
      </p>
      {delivery.attempts.length === 0 ? (
        <p>No attempt yet.</p>
      ) : (
        <table className="keys">
          <caption>Attempts of this delivery</caption>
          <thead>
            <tr>
              <th scope="col">Attempt</th>
              <th scope="col">Started</th>
              <th scope="col">Answer</th>
              <th scope="col">Took</th>
              <th scope="col">Response</th>
            </tr>
          </thead>
          <tbody>
            {delivery.attempts.map((attempt) => (
              <tr key={attempt.attempt}>
                <td data-label="Attempt">{attempt.attempt}</td>
                <td data-label="Started">{dateTime.format(new Date(attempt.startedAt))}</td>
                <td data-label="Answer">{answerOf(attempt)}</td>
                <td data-label="Took">{attempt.durationMs} ms</td>
                <td data-label="Response">
                  {attempt.responseSnippet ? <code className="wrap">{attempt.responseSnippet}</code> : '—'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {delivery.payload ? (
        <PrettyBody title="Payload sent (every attempt POSTs these bytes)" text={delivery.payload} />
      ) : null}
      {attempts.map((attempt, index) => (
        <SentHeaders key={attempt.attempt} attempt={attempt} open={index === attempts.length - 1} />
      ))}
    </div>
  );
}
