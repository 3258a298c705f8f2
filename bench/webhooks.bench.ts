import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { postWebhook } from '../src/webhooks/http-post.ts';
import { deliveryHeaders, envelopeBody } from '../src/webhooks/signing.ts';
import { startTestStack } from '../test/support/stack.ts';
import { sized } from './quick.ts';
import { atLeast, recordFigure } from './report/figures.ts';
import { measuredPhase, rate, report } from './setup.ts';

const EVENTS = sized(1_000, 100);
/** Both sides run a warm-up round, then this many measured rounds, alternating; the figures are the medians. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? sized(3, 1));
/** The worker's default activity slots: at most this many delivery attempts run at once. */
const CONCURRENCY = 100;

async function inParallel(count: number, limit: number, run: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < count) await run(next++);
    }),
  );
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * Rounds of 1,000 `asset.initialized` events committed to the outbox at once, delivered as the worker process
 * does (the dispatcher makes each first attempt: signed POST, attempt and delivery rows; a retry workflow only
 * for a failure) to a local receiver, against raw signed POSTs of the same envelopes to the same receiver, 100
 * at a time. Each side first runs a round that is not measured (a cold side measured a fifth of a second once
 * moved the ratio by ±0.2 between runs), then ROUNDS measured rounds each, alternating.
 */
export async function benchWebhooks(): Promise<void> {
  const received = new Set<string>();
  let requests = 0;
  let expected = 0;
  let allReceived: () => void = () => {};
  const receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      requests++;
      const id = String(request.headers['webhook-id']);
      if (id.startsWith('bench-raw-')) return response.end();
      received.add(id);
      if (received.size === expected) allReceived();
      response.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  const stack = await startTestStack();
  try {
    const tenant = await stack.api.createTenant('Bench');
    const created = await stack.api.call('POST', '/v1/webhooks/endpoints', {
      key: tenant.testKey,
      body: { url },
    });
    const secret: string = created.body.secret;
    const sql = stack.api.db.orm.em.fork();

    let rawPosts = 0;
    /** Milliseconds for EVENTS raw signed POSTs. */
    const rawRound = async (round: string) => {
      const started = performance.now();
      await inParallel(EVENTS, CONCURRENCY, async (i) => {
        const eventId = `bench-raw-${round}-${i}`;
        const body = envelopeBody({
          eventId,
          eventType: 'asset.initialized',
          occurredAt: new Date(),
          data: { chipUid: `04${i.toString(16).padStart(12, '0')}`.toUpperCase(), status: 'INACTIVE' },
        });
        const headers = deliveryHeaders({
          eventId,
          body,
          secrets: [secret],
          timestampSeconds: Math.floor(Date.now() / 1000),
        });
        await postWebhook({ url: new URL(url), body, headers, timeoutMs: 15_000, maxSnippetBytes: 2048 });
        rawPosts++;
      });
      return performance.now() - started;
    };
    /** Milliseconds from committing EVENTS events to the receiver having them all, and to all recorded. */
    const serviceRound = async () => {
      expected += EVENTS;
      const done = new Promise<void>((resolve) => {
        allReceived = resolve;
      });
      const started = performance.now();
      await sql.execute(
        `insert into outbox_events (id, company_id, environment, event_type, data, occurred_at)
         select gen_random_uuid(), ?, 'test', 'asset.initialized',
                jsonb_build_object('chipUid', upper(lpad(to_hex(n), 14, '0')), 'status', 'INACTIVE',
                                   'enrolledAt', now()),
                now()
         from generate_series(1, ?) as n`,
        [tenant.companyId, EVENTS],
      );
      await done;
      const receivedMs = performance.now() - started;
      for (;;) {
        const [row] = await sql.execute<{ n: number }[]>(
          `select count(*)::int as n from webhook_deliveries where status = 'succeeded'`,
        );
        if (row!.n >= expected) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return { receivedMs, recordedMs: performance.now() - started };
    };

    await rawRound('warm-up');
    await serviceRound();
    const rounds: { raw: number; received: number; recorded: number }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const rawMs = await measuredPhase(`webhooks-raw-${round + 1}`, () => rawRound(String(round)));
      const { receivedMs, recordedMs } = await measuredPhase(`webhooks-service-${round + 1}`, serviceRound);
      rounds.push({
        raw: rate(EVENTS, rawMs),
        received: rate(EVENTS, receivedMs),
        recorded: rate(EVENTS, recordedMs),
      });
    }
    const serviceRequests = requests - rawPosts;
    recordFigure({
      bench: 'webhooks',
      name: `webhook deliveries ÷ raw signed POSTs (${EVENTS} events, same receiver)`,
      ours: median(rounds.map((r) => r.received)),
      baseline: median(rounds.map((r) => r.raw)),
      unit: 'deliveries/s',
      ratio: median(rounds.map((r) => r.received / r.raw)),
      ...atLeast(0.8),
    });
    report(
      `webhooks: ${EVENTS} events, ${CONCURRENCY} at a time, local receiver, median of ${ROUNDS} rounds (after a warm-up round on each side)`,
      {
        'raw signed POSTs/s (baseline)': median(rounds.map((r) => r.raw)),
        'deliveries/s (outbox → receiver)': median(rounds.map((r) => r.received)),
        'deliveries/s (outbox → recorded succeeded)': median(rounds.map((r) => r.recorded)),
        'ratio deliveries / raw': median(rounds.map((r) => r.received / r.raw)),
        'ratios per round': rounds.map((r) => (r.received / r.raw).toFixed(2)).join(' '),
        'POSTs received by the receiver (service)': serviceRequests,
        'duplicate deliveries': serviceRequests - received.size,
      },
    );
    if (serviceRequests !== received.size)
      throw new Error(`${serviceRequests - received.size} duplicate deliveries: each event must arrive once`);
  } finally {
    await stack.close();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  }
}
