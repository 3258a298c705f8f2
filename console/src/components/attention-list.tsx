import type { Environment } from '../api.ts';
import type { Overview } from '../overview-api.ts';
import { linkHandler } from '../router.ts';

interface Signal {
  key: string;
  count: number;
  text: string;
  /** A console path where it is seen and acted on. */
  to: string;
}

const MODE: Record<Environment, string> = { test: 'Test', live: 'Live' };
const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

function signals(data: Overview, environment: Environment): Signal[] {
  const a = data.attention[environment];
  const mints = data.mints?.[environment];
  const all: Signal[] = [
    {
      key: 'dead',
      count: a.deadLetters,
      text: `${plural(a.deadLetters, 'webhook delivery', 'webhook deliveries')} failed for good (dead-letter queue)`,
      to: '/settings/webhooks',
    },
    {
      key: 'retrying',
      count: a.retryingDeliveries,
      text: `${plural(a.retryingDeliveries, 'webhook delivery is', 'webhook deliveries are')} failing and being retried`,
      to: '/settings/webhooks',
    },
    {
      key: 'disabled',
      count: a.disabledEndpoints,
      text: `${plural(a.disabledEndpoints, 'webhook endpoint is', 'webhook endpoints are')} switched off`,
      to: '/settings/webhooks',
    },
    {
      key: 'mints',
      count: mints?.needAttention ?? 0,
      text: `${plural(mints?.needAttention ?? 0, 'mint is', 'mints are')} on chain but not yet recorded`,
      to: '/passports',
    },
    {
      key: 'registry',
      count: a.registryRefused,
      text: `${plural(a.registryRefused, 'registration was', 'registrations were')} refused by the EU registry`,
      to: '/passports',
    },
    {
      key: 'backup',
      count: a.backupsStuck,
      text: `${plural(a.backupsStuck, 'backup copy is', 'backup copies are')} not accepted by the backup provider`,
      to: '/passports',
    },
  ];
  return all.filter((signal) => signal.count > 0);
}

/** What needs someone's attention, per environment, each with where to act on it. */
export function AttentionList({ data }: { data: Overview }) {
  const rows = (['live', 'test'] as const).flatMap((environment) =>
    signals(data, environment).map((signal) => ({ ...signal, environment })),
  );
  return (
    <section className="card attention-card" aria-labelledby="attention-heading">
      <h2 id="attention-heading">Needs attention</h2>
      {rows.length === 0 ? (
        <p className="success">Nothing needs attention: every delivery, registration and backup is fine.</p>
      ) : (
        <ul>
          {rows.map((row) => (
            <li key={`${row.environment}-${row.key}`}>
              <span className={`mode-tag ${row.environment}`}>{MODE[row.environment]}</span>{' '}
              <a href={`/console${row.to}`} onClick={linkHandler(row.to)}>
                {row.text}
              </a>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
