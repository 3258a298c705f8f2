import { type FormEvent, useEffect, useRef } from 'react';
import type { WebhookEndpoint } from '../api.ts';
import { EventTypeChecks } from '../components/event-type-checks.tsx';

export interface EndpointChanges {
  url: string;
  description: string | null;
  eventTypes: string[];
}

interface EndpointEditProps {
  endpoint: WebhookEndpoint;
  eventTypes: string[] | null;
  busy: boolean;
  onSave: (changes: EndpointChanges) => void;
  onCancel: () => void;
}

/** Change an endpoint's URL, description and event types; its secret and deliveries stay. */
export function EndpointEdit({ endpoint, eventTypes, busy, onSave, onCancel }: EndpointEditProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const description = String(data.get('description') ?? '').trim();
    onSave({
      url: String(data.get('url')).trim(),
      description: description || null,
      eventTypes: data.getAll('eventTypes').map(String),
    });
  };
  return (
    <section className="card" aria-labelledby="edit-endpoint-heading">
      <h2 id="edit-endpoint-heading" ref={heading} tabIndex={-1}>
        Edit <code className="wrap">{endpoint.url}</code>
      </h2>
      <form onSubmit={submit} className="stacked-form">
        <label htmlFor="edit-url">URL</label>
        <input id="edit-url" name="url" type="url" required defaultValue={endpoint.url} />
        <label htmlFor="edit-description">Description (optional)</label>
        <input
          id="edit-description"
          name="description"
          maxLength={500}
          defaultValue={endpoint.description ?? ''}
        />
        <EventTypeChecks eventTypes={eventTypes} checked={endpoint.eventTypes} idPrefix="edit-event" />
        <div className="actions">
          <button type="submit" disabled={busy}>
            Save changes
          </button>
          <button type="button" className="secondary" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </form>
    </section>
  );
}
