import { startTestApi } from '../test/support/api.ts';
import { sized } from './quick.ts';
import { report } from './setup.ts';

const REQUESTS = sized(500, 20);
const ROUNDS = sized(6, 2);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** An API with the request log on or off (REQUEST_LOG_ENABLED is read when the app is made). */
async function apiWithLog(enabled: boolean) {
  process.env.REQUEST_LOG_ENABLED = String(enabled);
  try {
    // No rate limit: 2,000 calls a round would otherwise be answered 429 after the first 600 of a minute.
    return await startTestApi({ RATE_LIMIT_PER_MINUTE: '0' });
  } finally {
    delete process.env.REQUEST_LOG_ENABLED;
  }
}

/**
 * What the request log costs a request (Developers › Logs, issue 36): the same 2,000 sequential calls, a
 * small authenticated GET and a refused PUT with a 2 KiB JSON body, against an API with the log off and one with
 * it on (two apps on two databases), off and on alternating over 6 rounds of 500, medians; and how long the log then takes to hold them all.
 */
export async function benchRequestLog(): Promise<void> {
  const off = await apiWithLog(false);
  const on = await apiWithLog(true);
  try {
    const body = {
      sdmMetaReadKey: '00112233445566778899AABBCCDDEEFF',
      sdmFileReadKey: 'not hex',
      note: 'x'.repeat(2_000),
    };
    const perRequest: Record<string, number[]> = {};
    const apis = [
      ['off', off, await off.createTenant('Bench')],
      ['on', on, await on.createTenant('Bench')],
    ] as const;
    // Off and on alternate, round by round, so a machine busy with something else weighs on both alike.
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, api, tenant] of apis) {
        for (const [kind, status, call] of [
          ['GET', 200, () => api.call('GET', '/v1/webhooks/endpoints', { key: tenant.testKey })],
          ['PUT 400', 400, () => api.call('PUT', '/v1/dpp/chip-keys', { key: tenant.testKey, body })],
        ] as const) {
          const started = performance.now();
          for (let i = 0; i < REQUESTS; i++) {
            const answer = await call();
            if (answer.status !== status)
              throw new Error(
                `${kind} answered ${answer.status}, not ${status}: ${answer.text.slice(0, 300)}`,
              );
          }
          const series = `${kind} log ${name}`;
          perRequest[series] = [...(perRequest[series] ?? []), (performance.now() - started) / REQUESTS];
        }
      }
    }
    const drained = performance.now();
    const expected = ROUNDS * REQUESTS * 2;
    const connection = on.db.orm.em.fork().getConnection();
    // The cap (10,000 by default) keeps the newest: wait until the last batch is in.
    for (;;) {
      const [row] = await connection.execute<{ n: number }[]>('select count(*)::int as n from request_logs');
      if (row!.n >= Math.min(expected, 10_000)) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const rows: Record<string, number | string> = {};
    for (const [name, values] of Object.entries(perRequest))
      rows[`${name} (ms per request, median)`] = median(values);
    for (const kind of ['GET', 'PUT 400']) {
      rows[`${kind}: added by the log (ms per request)`] =
        median(perRequest[`${kind} log on`]!) - median(perRequest[`${kind} log off`]!);
    }
    rows['log complete after the last answer (ms)'] = performance.now() - drained;
    report(`request log: ${REQUESTS} sequential requests × ${ROUNDS}, log off vs on`, rows);
  } finally {
    await off.close();
    await on.close();
  }
}
