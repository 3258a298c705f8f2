import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { enrollAndMint } from '../test/support/fixtures/mint.ts';
import { GTIN } from '../test/support/fixtures/products.ts';
import { startTestStack } from '../test/support/stack.ts';
import { type LoadResult, runLoad } from './http-load.ts';
import { sized } from './quick.ts';
import { atLeast, recordFigure } from './report/figures.ts';
import { API_MAIN, type Server, startServer } from './server-process.ts';
import { report } from './setup.ts';

const CONNECTIONS = 64;
const PASSPORTS = sized(16, 2);
const SECONDS = Number(process.env.BENCH_SECONDS ?? sized(5, 1));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? sized(3, 1));
const TARGETS = { public: 0.8, vc: 0.5 } as const;

const BARE = fileURLToPath(new URL('./bare-resolver.ts', import.meta.url));

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * The GS1 resolver (format=public and format=vc, 64 keep-alive connections) in the production API process
 * (api/main.ts) against a bare node:http + pg server reading the same row and writing the same JSON, each in
 * its own process on the same database, rounds alternating; medians of requests/s and p99. Request logging is
 * off on both sides (LOG_LEVEL=warn): the bare handler logs nothing either.
 */
export async function benchResolver(): Promise<void> {
  const stack = await startTestStack({ dispatcher: false });
  const servers: Server[] = [];
  try {
    const tenant = await stack.api.createTenant('Bench');
    const call = (method: string, path: string, body?: unknown) =>
      stack.api.call(method, path, { key: tenant.testKey, ...(body === undefined ? {} : { body }) });
    const tokens: string[] = [];
    for (let i = 0; i < PASSPORTS; i++) {
      const chipUid = `04BE${i.toString(16).padStart(10, '0')}`.toUpperCase();
      tokens.push(await enrollAndMint(call, chipUid, { originCountry: 'PT', hsCode: '620293' }));
    }
    const env = {
      DATABASE_URL: stack.api.db.url,
      PUBLIC_BASE_URL: stack.api.config.publicBaseUrl,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '0',
      PUBLIC_RATE_LIMIT_PER_MINUTE: '0',
      IPFS_STORE_DIR: stack.api.config.ipfs.storeDir,
    };
    // BENCH_CPU_PROFILE=<dir>: both server processes write a CPU profile of the whole run when they stop.
    const profiles = process.env.BENCH_CPU_PROFILE;
    const api = await startServer(
      API_MAIN,
      env,
      profiles ? ['--cpu-prof', `--cpu-prof-dir=${profiles}/resolver-api`] : [],
    );
    servers.push(api);
    const bare = await startServer(
      BARE,
      env,
      profiles ? ['--cpu-prof', `--cpu-prof-dir=${profiles}/resolver-bare`] : [],
    );
    servers.push(bare);
    const headers = { 'x-service-env': 'test', accept: 'application/json' };

    for (const format of ['public', 'vc'] as const) {
      const paths = tokens.map((token) => `/01/${GTIN}/21/${token}?format=${format}`);
      // Same answer from both (the credential is signed by the first request and stored).
      for (const path of paths) {
        const ours = await (await fetch(`${api.url}${path}`, { headers })).text();
        const theirs = await (await fetch(`${bare.url}${path}`, { headers })).text();
        assert.deepEqual(JSON.parse(theirs), JSON.parse(ours), `${path}: the baseline writes the same JSON`);
      }
      const results: Record<'api' | 'bare', LoadResult[]> = { api: [], bare: [] };
      const cpuPerRequest: Record<'api' | 'bare', number[]> = { api: [], bare: [] };
      for (let round = 0; round < ROUNDS; round++) {
        for (const side of round % 2 === 0 ? (['bare', 'api'] as const) : (['api', 'bare'] as const)) {
          const server = side === 'api' ? api : bare;
          const cpuBefore = server.cpuMs();
          const result = await runLoad({
            baseUrl: server.url,
            paths,
            headers,
            connections: CONNECTIONS,
            seconds: SECONDS,
            warmupSeconds: 1,
            expectStatus: 200,
          });
          if (result.errors > 0) throw new Error(`${side} ${format}: ${result.errors} failed requests`);
          results[side].push(result);
          // Over warm-up and measurement alike: requests answered in both, at about the same rate.
          const answered = result.perSecond * (SECONDS + 1);
          cpuPerRequest[side].push(((server.cpuMs() - cpuBefore) * 1000) / answered);
        }
      }
      const perSecond = (side: 'api' | 'bare') => median(results[side].map((r) => r.perSecond));
      const p99 = (side: 'api' | 'bare') => median(results[side].map((r) => r.p99));
      const p50 = (side: 'api' | 'bare') => median(results[side].map((r) => r.p50));
      const ratio = perSecond('api') / perSecond('bare');
      recordFigure({
        bench: 'resolver',
        name: `resolver format=${format} ÷ bare node:http + pg (${CONNECTIONS} connections)`,
        ours: perSecond('api'),
        baseline: perSecond('bare'),
        unit: 'requests/s',
        ...atLeast(TARGETS[format]),
      });
      report(
        `resolver: format=${format}, ${CONNECTIONS} connections, ${SECONDS} s × ${ROUNDS} rounds, medians`,
        {
          'bare node:http + pg req/s (baseline)': perSecond('bare'),
          'resolver (API process) req/s': perSecond('api'),
          [`ratio resolver / bare (target ≥ ${TARGETS[format]})`]: ratio,
          'bare p50 / p99 ms': `${p50('bare').toFixed(1)} / ${p99('bare').toFixed(1)}`,
          'resolver p50 / p99 ms': `${p50('api').toFixed(1)} / ${p99('api').toFixed(1)}`,
          'server CPU µs per request, bare / resolver': `${median(cpuPerRequest.bare).toFixed(0)} / ${median(cpuPerRequest.api).toFixed(0)}`,
          'meets target': ratio >= TARGETS[format] ? 'yes' : 'NO',
        },
      );
    }
  } finally {
    for (const server of servers) await server.stop().catch(() => {});
    await stack.close();
  }
}
