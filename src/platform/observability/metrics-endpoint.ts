import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Orm } from '../db/orm.ts';
import { metricsRegistry, registerScrapedGauge, registerScrapedLabelledGauge } from './metrics.ts';

/**
 * Who may read /metrics. Metrics name no tenant, but they show volumes, error rates and timings of the whole
 * platform, so they are for operators:
 * - METRICS_TOKEN set: `Authorization: Bearer <token>` (Prometheus' `authorization` / `bearer_token_file`),
 *   from any address;
 * - unset, live environment not configured (development): only loopback peers without X-Forwarded-For (a
 *   reverse proxy on the same host would otherwise make every client look local);
 * - unset while the live environment is configured: nobody (404), so a deployment cannot expose it by omission.
 */
export interface MetricsAccess {
  token: string | undefined;
  requireToken: boolean;
}

export type MetricsVerdict = 'allowed' | 'unauthorized' | 'disabled';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

export function metricsVerdict(request: IncomingMessage, access: MetricsAccess): MetricsVerdict {
  if (access.token) {
    const presented = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
    return presented !== undefined && timingSafeEqual(digest(presented), digest(access.token))
      ? 'allowed'
      : 'unauthorized';
  }
  if (access.requireToken) return 'disabled';
  const local =
    LOOPBACK.has(request.socket.remoteAddress ?? '') && request.headers['x-forwarded-for'] === undefined;
  return local ? 'allowed' : 'unauthorized';
}

/** Other expositions appended to ours (the Temporal SDK runtime's own Prometheus endpoint on the worker). */
export type MetricsSource = () => Promise<string>;

/** Temporal core's Prometheus endpoint on loopback (worker/main.ts binds it): its text, or nothing if it is down. */
export function httpMetricsSource(url: string): MetricsSource {
  return async () => {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      return response.ok ? await response.text() : '';
    } catch {
      return '';
    }
  };
}

/** The exposition: our registry, then each extra source (families do not overlap: theirs are `temporal_*`). */
export async function metricsText(sources: MetricsSource[] = []): Promise<string> {
  const parts = [await metricsRegistry.metrics()];
  for (const source of sources) {
    const text = (await source()).trim();
    if (text) parts.push(`${text}\n`);
  }
  return parts.join('');
}

export const METRICS_CONTENT_TYPE = metricsRegistry.contentType;

/** Reads only the events not yet dispatched, through the partial index outbox_events_pending_idx. */
export const OUTBOX_LAG = `select extract(epoch from now() - min(recorded_at))::float8 as lag, count(*) as pending
  from outbox_events where dispatched_at is null`;

/**
 * Gauges read from the database when scraped: the outbox's lag (age of the oldest event not yet dispatched to
 * webhook deliveries; 0 when none waits) and how many wait. Database-wide, so every process reports the same.
 */
function registerOutboxMetrics(orm: Orm): void {
  const pending = async () =>
    (await orm.em.getConnection().execute<{ lag: number | null; pending: string }[]>(OUTBOX_LAG))[0];
  registerScrapedGauge(
    'dpp_outbox_lag_seconds',
    'Age of the oldest outbox event not yet dispatched to webhook deliveries (0: none waiting).',
    async () => Math.max(0, Number((await pending())?.lag ?? 0)),
  );
  registerScrapedGauge(
    'dpp_outbox_pending_events',
    'Outbox events not yet dispatched to webhook deliveries.',
    async () => Number((await pending())?.pending ?? 0),
  );
}

/** The worker's /metrics on its own port (METRICS_PORT); same access rules as the API's. */
export async function startMetricsServer(options: {
  host: string;
  port: number;
  access: MetricsAccess;
  sources?: MetricsSource[];
}): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (request.method !== 'GET' || path !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    const verdict = metricsVerdict(request, options.access);
    if (verdict !== 'allowed') {
      response
        .writeHead(verdict === 'disabled' ? 404 : 401, {
          'content-type': 'text/plain',
          ...(verdict === 'unauthorized' ? { 'www-authenticate': 'Bearer' } : {}),
        })
        .end(verdict === 'disabled' ? 'not found\n' : 'unauthorized\n');
      return;
    }
    metricsText(options.sources).then(
      (text) => response.writeHead(200, { 'content-type': METRICS_CONTENT_TYPE }).end(text),
      () => response.writeHead(500, { 'content-type': 'text/plain' }).end('metrics failed\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host === '0.0.0.0' ? '127.0.0.1' : options.host}:${port}/metrics`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Open chain transactions (not yet final: signed, sent, mined, reorged), read from the transaction manager's
 * table through its partial index of open rows; final states grow without bound and are counted by the manager
 * itself (countChainTransaction), not here.
 */
export const OPEN_CHAIN_TRANSACTIONS = `select chain_id::text as chain_id, state, count(*)::int as open,
    extract(epoch from now() - min(created_at))::float8 as oldest
  from chain_transactions where state in ('signed', 'sent', 'mined', 'reorged')
  group by chain_id, state`;

/**
 * Gauges of the chain transaction manager's open transactions, read from the database at scrape time (so an
 * operator sees a stuck nonce without the manager's help): how many per chain and state, and the age of the
 * oldest. Database-wide, like the outbox gauges.
 */
function registerChainTransactionMetrics(orm: Orm): void {
  const open = () =>
    orm.em
      .getConnection()
      .execute<{ chain_id: string; state: string; open: number; oldest: number }[]>(OPEN_CHAIN_TRANSACTIONS);
  registerScrapedLabelledGauge(
    'dpp_chain_transactions_open',
    'Chain transactions not yet final, by chain id and state (signed, sent, mined, reorged).',
    ['chain_id', 'state'],
    async () =>
      (await open()).map((row) => ({
        labels: { chain_id: row.chain_id, state: row.state },
        value: row.open,
      })),
  );
  registerScrapedLabelledGauge(
    'dpp_chain_oldest_open_transaction_seconds',
    'Age of the oldest chain transaction not yet final, by chain id (a stuck nonce shows here).',
    ['chain_id'],
    async () => {
      const oldest = new Map<string, number>();
      for (const row of await open())
        oldest.set(row.chain_id, Math.max(oldest.get(row.chain_id) ?? 0, row.oldest));
      return [...oldest].map(([chainId, value]) => ({ labels: { chain_id: chainId }, value }));
    },
  );
}

/** The gauges read from the database at scrape time (outbox, open chain transactions): API and worker. */
export function registerDatabaseMetrics(orm: Orm): void {
  registerOutboxMetrics(orm);
  registerChainTransactionMetrics(orm);
}
