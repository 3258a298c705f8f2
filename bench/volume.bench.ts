import assert from 'node:assert/strict';
import type { PostgreSqlConnection } from '@mikro-orm/postgresql';
import { VOLUME_INDEXES } from '../src/platform/db/migrations/Migration20261124900000_volume_indexes.ts';
import { FACTORY_DEFAULT_KEY, generateSun } from '../src/standards/sun/index.ts';
import { enrollAndMint } from '../test/support/fixtures/mint.ts';
import { GTIN } from '../test/support/fixtures/products.ts';
import { startTestStack } from '../test/support/stack.ts';
import { type SeededVolume, scaledSizes, seedVolume, type VolumeSizes } from '../test/support/volume-seed.ts';
import { sized } from './quick.ts';
import { atMost, collected, recordFigure } from './report/figures.ts';
import { report } from './setup.ts';

const SCALE = Number(process.env.BENCH_VOLUME_SCALE ?? sized(1, 0.002));
const READS = Number(process.env.BENCH_VOLUME_REQUESTS ?? sized(60, 5));
const WRITES = Number(process.env.BENCH_VOLUME_WRITES ?? sized(20, 3));
/** BENCH_VOLUME_BEFORE=1: measure without issue 26's indexes (the figures before the fix). */
const BEFORE = process.env.BENCH_VOLUME_BEFORE === '1';
const TARGET = 2;

/** The "empty" company: one page's worth of each list. */
const SMALL: VolumeSizes = {
  passports: 300,
  events: 3_000,
  deliveries: 3_000,
  resales: 30,
  users: 30,
  apiKeys: 5,
};
const SMALL_TOKEN_BASE = 2_000_000_000_000;

const indexNames = VOLUME_INDEXES.map((sql) => /if not exists (\w+)/.exec(sql)![1]!);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

interface Side {
  key: string;
  token: string;
  seededToken: string;
  endpointId: string;
  middleCursor: number;
  lastCursor: number;
  middleEvent: number;
}

/** Fills a side's cursors and tokens from its seed. */
async function sideFromSeed(
  conn: PostgreSqlConnection,
  side: Side,
  seeded: SeededVolume,
  companyId: string,
  events: number,
) {
  const [middle] = await conn.execute<{ id: number }[]>(
    'select id from supply_chain_events where company_id = ? order by id offset ? limit 1',
    [companyId, Math.floor(events / 2)],
  );
  Object.assign(side, {
    seededToken: seeded.tokens[1]!,
    endpointId: seeded.endpointId,
    middleCursor: seeded.middleCursor,
    lastCursor: seeded.lastCursor,
    middleEvent: Number(middle!.id),
  });
}

/**
 * Issue 26: one company with 1,000,000 passports (× BENCH_VOLUME_SCALE) and its events, deliveries, resales,
 * users and keys, seeded with INSERT … SELECT; every read and list the API serves (and the writes on big
 * tables: log-event, enroll, mint), measured sequentially on it and on an "empty" company of the same database
 * (one page's worth of each list, so both sides answer full pages), requests alternating; p50/p99 of each and
 * the ratio of the p50s (target ≤ 2). A same-database ratio cannot see a cost every company pays (a scan of
 * everyone's rows): read the absolute p50s too.
 */
export async function benchVolume(): Promise<void> {
  const stack = await startTestStack({
    dispatcher: false,
    apiEnv: { RATE_LIMIT_PER_MINUTE: '0', PUBLIC_RATE_LIMIT_PER_MINUTE: '0' },
  });
  try {
    const conn = stack.api.db.orm.em.getConnection();
    const sizes = scaledSizes(SCALE);
    const sides: Record<'volume' | 'empty', Side> = {} as never;
    for (const [name, uid] of [
      ['volume', '04AA000000000A'],
      ['empty', '04AA000000000B'],
    ] as const) {
      const tenant = await stack.api.createTenant(name === 'volume' ? 'Volume Brand' : 'Empty Brand');
      const call = (method: string, path: string, body?: unknown) =>
        stack.api.call(method, path, { key: tenant.testKey, ...(body === undefined ? {} : { body }) });
      const token = await enrollAndMint(call, uid, { originCountry: 'PT', hsCode: '620293' });
      sides[name] = {
        key: tenant.testKey,
        token,
        seededToken: token,
        endpointId: '',
        middleCursor: 0,
        lastCursor: 0,
        middleEvent: 0,
      };
      const scope = { companyId: tenant.companyId, environment: 'test' as const };
      if (name === 'empty') {
        // A brand's first days: a page's worth of everything, so both sides answer full pages and the ratio
        // is the cost of volume alone (not of 100 items against none).
        const seeded = await seedVolume(
          stack.api.db.orm.em.fork(),
          scope,
          SMALL,
          'sm',
          () => {},
          SMALL_TOKEN_BASE,
        );
        await sideFromSeed(conn, sides.empty, seeded, scope.companyId, SMALL.events);
        continue;
      }
      // Bulk loading is faster without the indexes; they are built afterwards (unless measuring "before").
      for (const index of indexNames) await conn.execute(`drop index if exists ${index}`);
      const started = performance.now();
      console.log(
        `\nvolume: seeding ${sizes.passports} passports, ${sizes.events} events, ${sizes.deliveries} deliveries, ` +
          `${sizes.resales} resales, ${sizes.users} users (BENCH_VOLUME_SCALE=${SCALE})`,
      );
      const seeded = await seedVolume(stack.api.db.orm.em.fork(), scope, sizes, 'vb', console.log);
      if (!BEFORE) {
        for (const sql of VOLUME_INDEXES) {
          const at = performance.now();
          await conn.execute(sql);
          console.log(
            `  built ${/exists (\w+)/.exec(sql)![1]} in ${((performance.now() - at) / 1000).toFixed(1)} s`,
          );
        }
      }
      // The request log keeps at most REQUEST_LOG_MAX_ROWS (10,000) entries per company and environment: full.
      const logged = Math.min(10_000, sizes.passports);
      await conn.execute(
        `insert into request_logs (company_id, environment, created_at, method, path, status, duration_ms, request_id)
         select ?, 'test', now() - interval '1 second' * i, 'GET', '/v1/dpp/inventory', 200, 5, 'seeded-' || i
         from generate_series(1, ?) i`,
        [scope.companyId, logged],
      );
      console.log(`  seeded ${logged} request log entries`);
      await conn.execute('analyze');
      console.log(`  seeding took ${((performance.now() - started) / 1000).toFixed(0)} s in all`);
      await sideFromSeed(conn, sides.volume, seeded, scope.companyId, sizes.events);
    }

    const dl = (s: Side, query: string) => `/01/${GTIN}/21/${s.token}${query}`;
    const reads: [string, (s: Side) => string, Record<string, string>?][] = [
      ['inventory, first page', () => '/v1/dpp/inventory?limit=100'],
      ['inventory, middle page', (s) => `/v1/dpp/inventory?limit=100&after=${s.middleCursor}`],
      ['inventory, last page', (s) => `/v1/dpp/inventory?limit=100&after=${s.lastCursor}`],
      ['events, first page', () => '/v1/iaas/events?limit=100'],
      ['events, by cursor', (s) => `/v1/iaas/events?limit=100&after=${s.middleEvent}`],
      ['events of a token', (s) => `/v1/iaas/events?tokenId=${s.seededToken}`],
      ['custody', (s) => `/v1/iaas/custody/${s.seededToken}`],
      ['endpoint deliveries', (s) => `/v1/webhooks/endpoints/${s.endpointId}/deliveries?limit=100`],
      [
        'endpoint deliveries, dead',
        (s) => `/v1/webhooks/endpoints/${s.endpointId}/deliveries?status=dead&limit=100`,
      ],
      ['dead letters', () => '/v1/webhooks/dead-letters?limit=100'],
      ['resale status of a token', (s) => `/v1/dpp/resales/${s.seededToken}`],
      ['API keys', () => '/v1/auth/api-keys'],
      // The pay-per-mint meter: a count of the period's mints (all seeded passports are of this period).
      ['billing usage', () => '/v1/billing/usage'],
      ['billing status', () => '/v1/billing/status'],
      ['resolver format=public', (s) => dl(s, '?format=public')],
      ['resolver format=vc', (s) => dl(s, '?format=vc')],
      ['resolver format=linkset', (s) => dl(s, '?format=linkset')],
      ['verification page', (s) => `/verify/01/${GTIN}/21/${s.token}`, { accept: 'text/html' }],
      ['AAS resolve', (s) => `/v1/aas/resolve/${s.token}`],
      // The console's Passports search (a fragment of a token id: the trigram index) and Developers › Logs.
      ['console search (q)', (s) => `/v1/dpp/passports?q=${s.seededToken.slice(-7)}&limit=100`],
      ['request log, first page', () => '/v1/request-logs?limit=100'],
    ];
    const rows: Record<string, string> = {};
    let worst = 0;
    const record = (name: string, times: Record<'volume' | 'empty', number[]>) => {
      const stats = (list: number[]) => {
        const sorted = [...list].sort((a, b) => a - b);
        return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
      };
      const v = stats(times.volume);
      const e = stats(times.empty);
      const ratio = v.p50 / e.p50;
      worst = Math.max(worst, ratio);
      collected.growth.push({
        name,
        points: [
          { passports: SMALL.passports, p50Ms: e.p50 },
          { passports: sizes.passports, p50Ms: v.p50 },
        ],
      });
      rows[name] =
        `${e.p50.toFixed(1)} / ${e.p99.toFixed(1)}  ${v.p50.toFixed(1)} / ${v.p99.toFixed(1)}  ` +
        `${ratio.toFixed(2)}${ratio <= TARGET ? '' : '  > 2'}`;
      console.log(`  ${name.padEnd(30)} ${rows[name]}`);
    };
    for (const [name, path, headers] of reads) {
      const times: Record<'volume' | 'empty', number[]> = { volume: [], empty: [] };
      for (let i = -3; i < READS; i++) {
        for (const side of i % 2 === 0 ? (['volume', 'empty'] as const) : (['empty', 'volume'] as const)) {
          const started = performance.now();
          const res = await stack.api.call('GET', path(sides[side]), {
            key: sides[side].key,
            ...(headers ? { headers } : {}),
          });
          const ms = performance.now() - started;
          assert.ok(
            res.status === 200 || res.status === 404,
            `${name} (${side}): ${res.status} ${res.text.slice(0, 200)}`,
          );
          if (i >= 0) times[side].push(ms);
        }
      }
      record(name, times);
    }
    // Writes on big tables: an event on a passport (the events, outbox), a chip enrolled (chips).
    const writes: [string, (s: Side, i: number) => [string, unknown]][] = [
      [
        'log-event (POST)',
        (s) => [
          '/v1/iaas/log-event',
          {
            tokenId: s.token,
            action: 'SHIPPED',
            locationName: 'Porto',
            latitude: 41.15,
            longitude: -8.61,
            metadata: {},
          },
        ],
      ],
      [
        'enroll (POST)',
        (s, i) => [
          '/v1/dpp/enroll',
          {
            chipUid: `04C${s === sides.volume ? 'A' : 'B'}${i.toString(16).toUpperCase().padStart(10, '0')}`,
          },
        ],
      ],
    ];
    for (const [name, request] of writes) {
      const times: Record<'volume' | 'empty', number[]> = { volume: [], empty: [] };
      for (let i = 0; i < WRITES + 2; i++) {
        for (const side of i % 2 === 0 ? (['volume', 'empty'] as const) : (['empty', 'volume'] as const)) {
          const [path, body] = request(sides[side], i);
          const started = performance.now();
          const res = await stack.api.call('POST', path, { key: sides[side].key, body });
          const ms = performance.now() - started;
          assert.equal(res.status, 201, `${name} (${side}): ${res.text.slice(0, 200)}`);
          if (i >= 2) times[side].push(ms);
        }
      }
      record(name, times);
    }
    // The mint (its workflow and the recording of the passport, the usage count, the outbox) of a chip enrolled
    // just before (the enroll is not timed).
    const mintTimes: Record<'volume' | 'empty', number[]> = { volume: [], empty: [] };
    for (let i = 0; i < WRITES + 2; i++) {
      for (const side of i % 2 === 0 ? (['volume', 'empty'] as const) : (['empty', 'volume'] as const)) {
        const key = sides[side].key;
        const chipUid = `04D${side === 'volume' ? 'A' : 'B'}${i.toString(16).toUpperCase().padStart(10, '0')}`;
        const enrolled = await stack.api.call('POST', '/v1/dpp/enroll', { key, body: { chipUid } });
        assert.equal(enrolled.status, 201, enrolled.text);
        const tap = generateSun({
          uid: chipUid,
          counter: 1,
          keys: { metaReadKey: FACTORY_DEFAULT_KEY, fileReadKey: FACTORY_DEFAULT_KEY },
        });
        const started = performance.now();
        const minted = await stack.api.call('POST', '/v1/dpp/mint', {
          key,
          body: {
            name: 'Trail Jacket',
            description: 'Waterproof shell',
            image: 'https://cdn.acme.example/jacket.png',
            chipUid,
            nfcData: `picc_data=${tap.piccData}&cmac=${tap.cmac}`,
            custom_dpp_data: {
              gtin: GTIN,
              conformity_url: 'https://acme.example/conformity.pdf',
              originCountry: 'PT',
              hsCode: '620293',
            },
          },
        });
        const ms = performance.now() - started;
        assert.equal(minted.status, 201, `mint (${side}): ${minted.text.slice(0, 200)}`);
        if (i >= 2) mintTimes[side].push(ms);
      }
    }
    record('mint (POST, workflow + recording)', mintTimes);
    recordFigure({
      bench: 'volume',
      name: `every list at ${sizes.passports} passports ÷ at one page, worst p50`,
      ours: worst,
      baseline: 1,
      unit: 'ratio of p50s',
      ratio: worst,
      ...atMost(TARGET),
    });
    report(
      `volume: ${sizes.passports} passports vs an empty company${BEFORE ? ' (WITHOUT the issue-26 indexes)' : ''}; ` +
        `${READS} reads / ${WRITES} writes each; empty p50 / p99 ms, volume p50 / p99 ms, ratio of p50s`,
      {
        ...rows,
        [`worst ratio (target ≤ ${TARGET})`]: worst.toFixed(2),
        'meets target': worst <= TARGET ? 'yes' : 'NO',
      },
    );
  } finally {
    await stack.close();
  }
}
