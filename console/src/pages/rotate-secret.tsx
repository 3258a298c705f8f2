import { type FormEvent, useEffect, useRef } from 'react';
import type { WebhookEndpoint } from '../api.ts';

/** How long the previous secret keeps signing after a rotation (the API takes 0 to 7 days; it defaults to a day). */
export const OVERLAPS = [
  { seconds: 0, label: 'No overlap: retire the previous secret now' },
  { seconds: 3_600, label: '1 hour' },
  { seconds: 86_400, label: '1 day' },
  { seconds: 3 * 86_400, label: '3 days' },
  { seconds: 7 * 86_400, label: '7 days' },
];

interface RotateSecretProps {
  endpoint: WebhookEndpoint;
  busy: boolean;
  onRotate: (overlapSeconds: number) => void;
  onCancel: () => void;
}

/** Rotate an endpoint's signing secret, choosing how long the previous one keeps signing. */
export function RotateSecret({ endpoint, busy, onRotate, onCancel }: RotateSecretProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onRotate(Number(new FormData(event.currentTarget).get('overlap')));
  };
  return (
    <section className="card" aria-labelledby="rotate-heading">
      <h2 id="rotate-heading" ref={heading} tabIndex={-1}>
        Rotate the secret of <code className="wrap">{endpoint.url}</code>
      </h2>
      <p className="hint">
        From the rotation on, <code>service-signature</code> is signed with the new secret only; during the
        overlap <code>webhook-signature</code> carries two signatures (new and previous secret), so a Standard
        Webhooks receiver can switch over without missing one.
      </p>
      <form onSubmit={submit} className="stacked-form">
        <label htmlFor="rotate-overlap">The previous secret keeps signing for</label>
        <select id="rotate-overlap" name="overlap" defaultValue="86400">
          {OVERLAPS.map((overlap) => (
            <option key={overlap.seconds} value={overlap.seconds}>
              {overlap.label}
            </option>
          ))}
        </select>
        <div className="actions">
          <button type="submit" disabled={busy}>
            Rotate now
          </button>
          <button type="button" className="secondary" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </form>
    </section>
  );
}
