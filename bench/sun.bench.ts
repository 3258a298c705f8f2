import { FACTORY_DEFAULT_KEY, generateSun, verifySun } from '../src/standards/sun/index.ts';
import { startTestApi } from '../test/support/api.ts';
import { sized } from './quick.ts';
import { atLeast, recordFigure } from './report/figures.ts';
import { rate, report } from './setup.ts';

const keys = { metaReadKey: FACTORY_DEFAULT_KEY, fileReadKey: FACTORY_DEFAULT_KEY };
const CLIENTS = 16;
const TAPS = sized(30_000, 2_000);
const HTTP_TAPS = sized(3_000, 200);

/** Taps per second of `verifySun` on this thread (one core), best of three passes. */
function pureRate(taps: ReturnType<typeof generateSun>[]): number {
  let best = 0;
  for (let pass = 0; pass < 3; pass++) {
    const started = performance.now();
    for (const tap of taps) {
      const input = { piccData: tap.piccData, cmac: tap.cmac, macInput: tap.macInput, keys };
      const result = verifySun(tap.encFileData ? { ...input, encFileData: tap.encFileData } : input);
      if (!result.ok) throw new Error(`verification failed: ${result.message}`);
    }
    best = Math.max(best, rate(taps.length, performance.now() - started));
  }
  return best;
}

async function concurrently(count: number, work: (i: number) => Promise<unknown>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (next < count) await work(next++);
    }),
  );
  return rate(count, performance.now() - started);
}

/**
 * SUN verification: the crypto on one core (target ≥ 50,000 taps/s, with and without SDMENCFileData),
 * then verify-chip over HTTP next to its floor, the conditional counter UPDATE alone on the same database.
 */
export async function benchSun(): Promise<void> {
  const uid = '04BE0000000001';
  const plain = Array.from({ length: TAPS }, (_, i) => generateSun({ uid, counter: i + 1, keys }));
  const withData = Array.from({ length: TAPS }, (_, i) =>
    generateSun({ uid, counter: i + 1, keys, fileData: Buffer.from('0123456789ABCDEF') }),
  );
  const pure = pureRate(plain);
  const pureWithData = pureRate(withData);

  const api = await startTestApi({ RATE_LIMIT_PER_MINUTE: '0' });
  try {
    const tenant = await api.createTenant('Bench');
    await api.call('POST', '/v1/dpp/enroll', { key: tenant.testKey, body: { chipUid: uid } });
    const httpTaps = plain.slice(0, HTTP_TAPS);
    // Every answer must be a verdict (authentic, or a replay of a counter another client's tap overtook).
    const http = await concurrently(httpTaps.length, async (i) => {
      const answer = await api.call('POST', '/v1/dpp/verify-chip', {
        key: tenant.testKey,
        body: { chipUid: uid, piccData: httpTaps[i]!.piccData, cmac: httpTaps[i]!.cmac },
      });
      if (answer.status !== 200 || (!answer.body.authentic && answer.body.reason !== 'replayed'))
        throw new Error(`verify-chip answered ${answer.status}: ${answer.text.slice(0, 300)}`);
    });
    // The floor of verify-chip: accepting a counter is one conditional UPDATE of the chip's row.
    const connection = api.db.orm.em.getConnection();
    const updates = await concurrently(HTTP_TAPS, (i) =>
      connection.execute(
        `update chips set sun_counter = ?, verification_count = verification_count + 1, last_verified_at = now()
         where chip_uid = ? and (sun_counter is null or sun_counter < ?) returning id`,
        [1_000_000 + i, uid, 1_000_000 + i],
      ),
    );
    recordFigure({
      bench: 'sun',
      name: 'verifySun, one core ÷ the 50,000 taps/s target',
      ours: pure,
      baseline: 50_000,
      unit: 'taps/s',
      ...atLeast(1),
    });
    recordFigure({
      bench: 'sun',
      name: `verify-chip over HTTP ÷ conditional counter UPDATE (${CLIENTS} clients)`,
      ours: http,
      baseline: updates,
      unit: 'taps/s',
      ...atLeast(0.5),
    });
    report('SUN verification', {
      'verifySun taps/s, one core (target ≥ 50,000)': pure,
      'verifySun with SDMENCFileData taps/s (target ≥ 50,000)': pureWithData,
      [`POST /v1/dpp/verify-chip/s (${CLIENTS} clients)`]: http,
      [`conditional counter UPDATE/s alone (${CLIENTS} clients)`]: updates,
      'ratio verify-chip / counter UPDATE': http / updates,
    });
  } finally {
    await api.close();
  }
}
