import { Agent } from 'node:http';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { RECORD_TAP, type RecordedTap } from '../src/chips/signals/tap-statement.ts';
import { FACTORY_DEFAULT_KEY, generateSun, verifySun } from '../src/standards/sun/index.ts';
import { startTestApi } from '../test/support/api.ts';
import { postJson } from './http-load.ts';
import { sized } from './quick.ts';
import { atLeast, recordFigure } from './report/figures.ts';
import { API_MAIN, type Server, startServer } from './server-process.ts';

const BARE_TAP_SERVER = fileURLToPath(new URL('./bare-tap-server.ts', import.meta.url));

import { rate, report } from './setup.ts';

const keys = { metaReadKey: FACTORY_DEFAULT_KEY, fileReadKey: FACTORY_DEFAULT_KEY };
const CLIENTS = 16;
const TAPS = sized(30_000, 2_000);
const HTTP_TAPS = Number(process.env.BENCH_HTTP_TAPS ?? sized(3_000, 200));

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

/** Readings per chip each side makes before it is measured: a cold API (its JIT, its pools) cost it a third. */
const WARM_PER_CHIP = sized(60, 5);

/**
 * Each of the CLIENTS clients taps its own chip, one reading after another in counter order, as a phone reads a
 * chip: `work(client, n)` for its n-th tap. First WARM_PER_CHIP readings each, not measured; then `measuring()`
 * and `count` more. Taps per second of the measured ones over all clients.
 */
async function perChip(
  count: number,
  work: (client: number, n: number) => Promise<unknown>,
  measuring: () => void = () => {},
): Promise<number> {
  const run = (from: number, to: number) =>
    Promise.all(
      Array.from({ length: CLIENTS }, async (_, client) => {
        for (let n = from; n < to; n++) await work(client, n);
      }),
    );
  await run(0, WARM_PER_CHIP);
  measuring();
  const perClient = Math.ceil(count / CLIENTS);
  const started = performance.now();
  await run(WARM_PER_CHIP, WARM_PER_CHIP + perClient);
  return rate(perClient * CLIENTS, performance.now() - started);
}

/**
 * SUN verification: the crypto on one core (target ≥ 50,000 taps/s, with and without SDMENCFileData),
 * then verify-chip over HTTP (the API in its own process) next to its floor, the conditional counter UPDATE alone
 * on the same database.
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
  let server: Server | undefined;
  const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
  try {
    const tenant = await api.createTenant('Bench');
    // One chip per client: a tap is accepted, and the UPDATE writes, on every reading of both sides.
    const chips = Array.from(
      { length: CLIENTS },
      (_, c) => `04BE00000001${c.toString(16).toUpperCase().padStart(2, '0')}`,
    );
    for (const chipUid of chips)
      await api.call('POST', '/v1/dpp/enroll', { key: tenant.testKey, body: { chipUid } });
    const perChipTaps = Math.ceil(HTTP_TAPS / CLIENTS);
    const chipTaps = chips.map((chipUid) =>
      Array.from({ length: WARM_PER_CHIP + perChipTaps }, (_, n) =>
        generateSun({ uid: chipUid, counter: n + 1, keys }),
      ),
    );
    // The API in its own process on the same database, as npm start runs it (in this process it would share one
    // event loop with the load below).
    server = await startServer(
      API_MAIN,
      {
        DATABASE_URL: api.db.url,
        PUBLIC_BASE_URL: api.config.publicBaseUrl,
        IPFS_STORE_DIR: api.config.ipfs.storeDir,
        LOG_LEVEL: 'warn',
        RATE_LIMIT_PER_MINUTE: '0',
      },
      process.env.BENCH_CPU_PROFILE
        ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROFILE}/sun-api`]
        : [],
    );
    const headers = { authorization: `Bearer ${tenant.testKey}`, 'x-service-env': 'test' };
    /** Taps per second against `target` and its CPU µs per tap, both over the measured taps. */
    const tapsAgainst = async (target: Server) => {
      const url = new URL('/v1/dpp/verify-chip', target.url);
      let cpuBefore = 0;
      // Every answer must be an authentic verdict: each chip's readings arrive in counter order.
      const taps = await perChip(
        HTTP_TAPS,
        async (client, n) => {
          const tap = chipTaps[client]![n]!;
          const answer = await postJson(agent, url, headers, {
            chipUid: chips[client],
            piccData: tap.piccData,
            cmac: tap.cmac,
          });
          const verdict =
            answer.status === 200 ? (JSON.parse(answer.body) as { authentic: boolean }) : undefined;
          if (!verdict?.authentic)
            throw new Error(`${url} answered ${answer.status}: ${answer.body.slice(0, 300)}`);
        },
        () => {
          cpuBefore = target.cpuMs();
        },
      );
      return { taps, cpuPerTap: ((target.cpuMs() - cpuBefore) * 1000) / (perChipTaps * CLIENTS) };
    };
    const { taps: http, cpuPerTap: apiCpuPerTap } = await tapsAgainst(server);
    await server.stop();
    server = undefined;
    // The ceiling of any HTTP service here: a bare server that only reads the body and runs the UPDATE.
    const bare = await startServer(BARE_TAP_SERVER, { DATABASE_URL: api.db.url });
    let bareHttp: number;
    let bareCpuPerTap: number;
    try {
      ({ taps: bareHttp, cpuPerTap: bareCpuPerTap } = await tapsAgainst(bare));
    } finally {
      await bare.stop();
    }
    // The floor of verify-chip: accepting a counter is one conditional UPDATE of the chip's row, sent the leanest
    // way there is (a prepared statement on a pg pool of the bare server's size; counters above the bare server's,
    // which starts at 1,000,000: each UPDATE writes).
    const pool = new pg.Pool({ connectionString: api.db.url, max: 10 });
    let updates: number;
    let recorded: number;
    try {
      updates = await perChip(HTTP_TAPS, async (client, n) => {
        const { rowCount } = await pool.query({
          name: 'update',
          text: `update chips set sun_counter = $1, verification_count = verification_count + 1,
                 last_verified_at = now() where chip_uid = $2 and (sun_counter is null or sun_counter < $1)`,
          values: [2_000_000 + n, chips[client]],
        });
        if (rowCount !== 1) throw new Error(`the UPDATE wrote nothing for ${chips[client]}`);
      });
      // What a tap must run once its signals are raised in the same statement (record_tap: the chip's UPDATE,
      // its passport's end of life, the burst window, a signal's upsert), alone and prepared the same way.
      recorded = await perChip(HTTP_TAPS, async (client, n) => {
        const { rows } = await pool.query<RecordedTap>({
          name: 'record_tap',
          text: RECORD_TAP,
          values: [
            tenant.companyId,
            'test',
            chips[client],
            3_000_000 + n,
            null,
            new Date(),
            null,
            null,
            null,
          ],
        });
        if (!rows[0]?.accepted)
          throw new Error(`record_tap refused counter ${3_000_000 + n} of ${chips[client]}`);
      });
    } finally {
      await pool.end();
    }
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
    recordFigure({
      bench: 'sun',
      name: `bare HTTP server + the same UPDATE ÷ the UPDATE alone (${CLIENTS} clients): the ceiling`,
      ours: bareHttp,
      baseline: updates,
      unit: 'taps/s',
      target: null,
    });
    recordFigure({
      bench: 'sun',
      name: `record_tap (the tap's statement with its signals) alone ÷ the UPDATE alone (${CLIENTS} clients)`,
      ours: recorded,
      baseline: updates,
      unit: 'taps/s',
      target: null,
    });
    report('SUN verification', {
      'verifySun taps/s, one core (target ≥ 50,000)': pure,
      'verifySun with SDMENCFileData taps/s (target ≥ 50,000)': pureWithData,
      [`POST /v1/dpp/verify-chip/s (${CLIENTS} clients)`]: http,
      [`conditional counter UPDATE/s alone (${CLIENTS} clients)`]: updates,
      'ratio verify-chip / counter UPDATE': http / updates,
      'API process CPU µs per tap': apiCpuPerTap.toFixed(0),
      [`bare HTTP server + the UPDATE/s (${CLIENTS} clients)`]: bareHttp,
      'ratio bare server / counter UPDATE (the ceiling)': bareHttp / updates,
      [`record_tap/s alone (${CLIENTS} clients)`]: recorded,
      'ratio record_tap / counter UPDATE': recorded / updates,
      'bare server process CPU µs per tap': bareCpuPerTap.toFixed(0),
    });
  } finally {
    agent.destroy();
    await server?.stop();
    await api.close();
  }
}
