import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The process's Prometheus metrics (prom-client), served at /metrics by the API and by the worker
 * (src/platform/observability/metrics-endpoint.ts). Callers use the small functions below, never prom-client itself,
 * so names, labels and their bounded values live here. Every label value is from a closed set: no ids,
 * paths or addresses (one series each would grow without bound).
 */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });

const SECONDS_FAST = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const SECONDS_CHAIN = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 1800];

const httpRequestDuration = new Histogram({
  name: 'dpp_http_request_duration_seconds',
  help: 'HTTP requests by method, route pattern (not the raw path) and status code.',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: SECONDS_FAST,
  registers: [metricsRegistry],
});

const workflowsFinished = new Counter({
  name: 'dpp_workflows_finished_total',
  help: 'Workflow runs finished, by workflow type and outcome (completed, refused, failed, cancelled).',
  labelNames: ['workflow', 'outcome'] as const,
  registers: [metricsRegistry],
});

const mints = new Counter({
  name: 'dpp_mints_total',
  help: 'Mint workflows finished, by environment and outcome (minted; refused: the workflow refused, e.g. a tap that does not verify; failed; cancelled).',
  labelNames: ['environment', 'outcome'] as const,
  registers: [metricsRegistry],
});

const chainTransactions = new Counter({
  name: 'dpp_chain_transactions_total',
  help: 'Chain transactions entering a state (e.g. submitted, replaced, confirmed, dropped, reorged, failed).',
  labelNames: ['environment', 'state'] as const,
  registers: [metricsRegistry],
});

const chainTransactionsInState = new Gauge({
  name: 'dpp_chain_transactions',
  help: 'Chain transactions currently in a state, as last reported by the transaction manager.',
  labelNames: ['environment', 'state'] as const,
  registers: [metricsRegistry],
});

const chainConfirmation = new Histogram({
  name: 'dpp_chain_confirmation_seconds',
  help: 'From a transaction first broadcast to its confirmation (CHAIN_CONFIRMATIONS deep on the canonical chain).',
  labelNames: ['environment'] as const,
  buckets: SECONDS_CHAIN,
  registers: [metricsRegistry],
});

const webhookAttempts = new Counter({
  name: 'dpp_webhook_attempts_total',
  help: 'Webhook delivery attempts by outcome (succeeded, failed, stopped, undeliverable).',
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry],
});

const activityDuration = new Histogram({
  name: 'dpp_activity_duration_seconds',
  help: 'Activities run by this worker, by workflow type, activity type and outcome (completed, failed).',
  labelNames: ['workflow', 'activity', 'outcome'] as const,
  buckets: SECONDS_FAST,
  registers: [metricsRegistry],
});

/** Route patterns are bounded; anything else (404s, static files) is one series. */
export function observeHttpRequest(
  method: string,
  route: string | undefined,
  status: number,
  seconds: number,
) {
  httpRequestDuration.observe({ method, route: route ?? 'unmatched', status: String(status) }, seconds);
}

export type MintOutcome = 'minted' | 'refused' | 'failed' | 'cancelled';

export function countWorkflowFinished(workflow: string, outcome: string): void {
  workflowsFinished.inc({ workflow, outcome });
}

export function countMint(environment: string, outcome: MintOutcome): void {
  mints.inc({ environment, outcome });
}

/**
 * For the chain transaction manager (src/adapters/chain): call on every state change of a transaction. `state` must be
 * one of a fixed set of words (the manager's states), never a hash or an error message.
 */
export function countChainTransaction(environment: string, state: string): void {
  chainTransactions.inc({ environment, state });
}

/** For the chain transaction manager: how many transactions are in each state now (e.g. after each poll). */
export function setChainTransactionsInState(environment: string, counts: Record<string, number>): void {
  for (const [state, count] of Object.entries(counts))
    chainTransactionsInState.set({ environment, state }, count);
}

/** For the chain transaction manager: a transaction reached its confirmations `seconds` after first broadcast. */
export function observeChainConfirmation(environment: string, seconds: number): void {
  chainConfirmation.observe({ environment }, seconds);
}

export function countWebhookAttempt(outcome: string): void {
  webhookAttempts.inc({ outcome });
}

export function observeActivity(workflow: string, activity: string, failed: boolean, seconds: number): void {
  activityDuration.observe({ workflow, activity, outcome: failed ? 'failed' : 'completed' }, seconds);
}

const readers = new Map<string, () => Promise<number | undefined>>();

/**
 * A gauge whose value is read when scraped (e.g. the outbox lag from the database). Registered once per name
 * per process; a later registration replaces the reader (tests start several apps in one process).
 */
export function registerScrapedGauge(
  name: string,
  help: string,
  read: () => Promise<number | undefined>,
): void {
  readers.set(name, read);
  if (metricsRegistry.getSingleMetric(name)) return;
  new Gauge({
    name,
    help,
    registers: [metricsRegistry],
    async collect() {
      const value = await readers
        .get(name)?.()
        .catch(() => undefined);
      if (value === undefined) this.reset();
      else this.set(value);
    },
  });
}

const labelledReaders = new Map<string, () => Promise<{ labels: Record<string, string>; value: number }[]>>();

/**
 * Like registerScrapedGauge, for a gauge with labels: each scrape replaces every series with what `read`
 * returns (a series that is gone, e.g. a state with no transaction left, disappears).
 */
export function registerScrapedLabelledGauge(
  name: string,
  help: string,
  labelNames: string[],
  read: () => Promise<{ labels: Record<string, string>; value: number }[]>,
): void {
  labelledReaders.set(name, read);
  if (metricsRegistry.getSingleMetric(name)) return;
  new Gauge({
    name,
    help,
    labelNames,
    registers: [metricsRegistry],
    async collect() {
      const series = await labelledReaders
        .get(name)?.()
        .catch(() => []);
      this.reset();
      for (const { labels, value } of series ?? []) this.set(labels, value);
    },
  });
}

const requestLogWrites = new Counter({
  name: 'dpp_request_log_entries_total',
  help: 'Request log entries by outcome (written; failed: the batch insert failed; dropped: the queue was full).',
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry],
});

export function countRequestLogEntries(outcome: 'written' | 'failed' | 'dropped', n: number): void {
  if (n > 0) requestLogWrites.inc({ outcome }, n);
}
