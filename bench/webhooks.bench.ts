import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { postWebhook } from '../src/webhooks/http-post.ts';
import { deliveryHeaders, envelopeBody } from '../src/webhooks/signing.ts';
import { startTestStack } from '../test/support/stack.ts';
import { sized } from './quick.ts';
import { atLeast, recordFigure } from './report/figures.ts';
import { rate, report } from './setup.ts';

const EVENTS = sized(1_000, 100);
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

/**
 * 1,000 `asset.initialized` events committed to the outbox at once, delivered as the worker process does (the
 * dispatcher makes each first attempt: signed POST, attempt and delivery rows; a retry workflow only for a
 * failure) to a local receiver, against raw signed POSTs of the same envelopes to the same receiver, 100 at a
 * time.
 */
export async function benchWebhooks(): Promise<void> {
  const received = new Set<string>();
  let requests = 0;
  let allReceived: () => void = () => {};
  const receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      requests++;
      const id = String(request.headers['webhook-id']);
      if (id.startsWith('bench-raw-')) return response.end();
      received.add(id);
      if (received.size === EVENTS) allReceived();
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

    const rawStarted = performance.now();
    await inParallel(EVENTS, CONCURRENCY, async (i) => {
      const eventId = `bench-raw-${i}`;
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
    });
    const rawMs = performance.now() - rawStarted;

    const done = new Promise<void>((resolve) => {
      allReceived = resolve;
    });
    const started = performance.now();
    await stack.api.db.orm.em.fork().execute(
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
    const sql = stack.api.db.orm.em.fork();
    for (;;) {
      const [row] = await sql.execute<{ n: number }[]>(
        `select count(*)::int as n from webhook_deliveries where status = 'succeeded'`,
      );
      if (row!.n >= EVENTS) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const recordedMs = performance.now() - started;
    recordFigure({
      bench: 'webhooks',
      name: `webhook deliveries ÷ raw signed POSTs (${EVENTS} events, same receiver)`,
      ours: rate(EVENTS, receivedMs),
      baseline: rate(EVENTS, rawMs),
      unit: 'deliveries/s',
      ...atLeast(0.8),
    });
    report(`webhooks: ${EVENTS} events, ${CONCURRENCY} at a time, local receiver`, {
      'raw signed POSTs/s (baseline)': rate(EVENTS, rawMs),
      'deliveries/s (outbox → receiver)': rate(EVENTS, receivedMs),
      'deliveries/s (outbox → recorded succeeded)': rate(EVENTS, recordedMs),
      'ratio deliveries / raw': rate(EVENTS, receivedMs) / rate(EVENTS, rawMs),
      'POSTs received by the receiver (service)': requests - EVENTS,
      'duplicate deliveries': requests - EVENTS - received.size,
    });
    if (requests - EVENTS !== received.size)
      throw new Error(
        `${requests - EVENTS - received.size} duplicate deliveries: each event must arrive once`,
      );
  } finally {
    await stack.close();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  }
}
