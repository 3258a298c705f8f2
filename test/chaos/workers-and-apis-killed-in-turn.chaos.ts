import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { type ApiProcess, startApiProcess } from '../support/api-process.ts';
import { mintLedger } from '../support/chain-ledger.ts';
import { sleep, waitUntil } from '../support/chain-load.ts';
import { mintBody } from '../support/fixtures/mint.ts';
import { type RealisticChain, startRealisticChain } from '../support/realistic-chain.ts';
import { LIVE_TEST_SECRETS } from '../support/secrets.ts';
import { startTestStack, TEST_DEPOSIT, type TestStack } from '../support/stack.ts';
import { stripeTestEnv } from '../support/stripe.ts';
import { startWorkerProcess, type WorkerProcess } from '../support/worker-process.ts';
import {
  assertMintedExactlyOnce,
  assertSignerNoncesClean,
  ledgerSource,
  stopWorkerForTotals,
} from './support/chain-chaos.ts';

const MINTS = 40;
/** Shared by both API processes through PostgreSQL: per API key, per minute. */
const LIMIT = 60;
const chipOf = (i: number) => `04CD${i.toString(16).toUpperCase().padStart(10, '0')}`;

describe('two worker processes and two API processes, each killed -9 in turn under load', () => {
  let chain: RealisticChain;
  let stack: TestStack;
  const workers: (WorkerProcess | undefined)[] = [];
  const apis: (ApiProcess | undefined)[] = [];
  let loadKey: string;
  let probeKey: string;

  const apiEnv = () => ({
    DATABASE_URL: stack.api.db.url,
    TEMPORAL_ADDRESS: stack.temporal.address,
    PUBLIC_BASE_URL: stack.api.config.publicBaseUrl,
    IPFS_STORE_DIR: stack.api.config.ipfs.storeDir,
    MINT_DEPOSIT: TEST_DEPOSIT,
    // Short: most mints answer 202 and are followed on Temporal, so few requests hang on a process to be killed.
    MINT_WAIT_MS: '1000',
    RATE_LIMIT_PER_MINUTE: String(LIMIT),
    ...LIVE_TEST_SECRETS,
    ...stripeTestEnv(),
  });
  let chainDataDir: string;
  // One deployment record for all of them: a replacement worker finds the live contract instead of deploying.
  const startWorker = () =>
    startWorkerProcess(stack, {
      rpcUrl: chain.rpcUrls,
      env: { CHAIN_CONFIRMATIONS: '2', CHAIN_DATA_DIR: chainDataDir },
    });

  beforeAll(async () => {
    chain = await startRealisticChain({ blockTime: 2 });
    chainDataDir = await mkdtemp(join(tmpdir(), 'dpp-chaos-chain-'));
    stack = await startTestStack({ chain, startWorker: false, dispatcher: false, apiClient: 'native' });
    loadKey = (await stack.api.createTenant('Acme Apparel')).testKey;
    probeKey = (await stack.api.createTenant('Probe Ltd')).testKey;
    // One after the other: each deploys its live-environment contract from one key at start.
    for (let i = 0; i < 2; i++) workers.push(await startWorker());
    apis.push(...(await Promise.all([startApiProcess(apiEnv()), startApiProcess(apiEnv())])));
  });
  afterAll(async () => {
    for (const worker of workers) await worker?.stop().catch(() => {});
    for (const api of apis) await api?.stop().catch(() => {});
    await stack?.close();
    if (chainDataDir) await rm(chainDataDir, { recursive: true, force: true });
  });

  /** Requests under way per API process, and requests cut off by a kill (then sent again elsewhere). */
  const inFlight = [0, 0];
  let cutOff = 0;
  /** A request to API process `index` (as a load balancer would send it); undefined when it cannot be reached. */
  const request = async (index: number, key: string, method: string, path: string, body?: unknown) => {
    const api = apis[index];
    if (!api) return undefined;
    inFlight[index]!++;
    try {
      const answer = await fetch(`${api.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${key}`,
          'x-service-env': 'test',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await answer.text();
      return { status: answer.status, headers: answer.headers, text };
    } catch {
      cutOff++;
      return undefined;
    } finally {
      inFlight[index]!--;
    }
  };
  /** Kills API process `index` -9 while it serves a mint, and starts its replacement. */
  const killApi = async (index: number) => {
    await waitUntil(async () => inFlight[index]! > 0, 20_000, `a request on API ${index + 1}`);
    await apis[index]!.kill();
    apis[index] = undefined;
    await sleep(1_000);
    apis[index] = await startApiProcess(apiEnv());
  };

  /**
   * A client that retries like one behind a load balancer: the other API process when one is gone, after
   * Retry-After on 429, the same request again (the mint of a chip joins its running workflow).
   */
  const mint = async (chipUid: string, first: number): Promise<{ chipUid: string; outcome: string }> => {
    const body = mintBody({ chipUid, name: `Chaos item ${chipUid}` });
    for (let attempt = 0, index = first; attempt < 60; attempt++) {
      const answer = await request(index, loadKey, 'POST', '/v1/dpp/mint', body);
      if (!answer) {
        index = 1 - index;
        await sleep(300);
        continue;
      }
      if (answer.status === 429) {
        await sleep(Number(answer.headers.get('retry-after') ?? 1) * 1000);
        continue;
      }
      if (answer.status === 201) return { chipUid, outcome: 'minted' };
      if (answer.status === 409 && answer.text.includes('chip_already_registered'))
        return { chipUid, outcome: 'minted' };
      if (answer.status === 202) {
        await stack.temporal.client.workflow.getHandle(`mint:test:${chipUid}`).result();
        return { chipUid, outcome: 'minted' };
      }
      return { chipUid, outcome: `${answer.status} ${answer.text.slice(0, 200)}` };
    }
    return { chipUid, outcome: 'gave up' };
  };

  const passports = async () =>
    (
      await stack.api.db.orm.em.fork().execute<{ n: number }[]>('select count(*)::int as n from passports')
    )[0]!.n;

  /** Requests of the probe key sent to `indexes` in turn; how many each answered without 429. */
  const probe = async (indexes: number[], count: number) => {
    let admitted = 0;
    let refused = 0;
    for (let i = 0; i < count; i++) {
      const answer = await request(
        indexes[i % indexes.length]!,
        probeKey,
        'GET',
        '/v1/dpp/mint/04FFFFFFFFFFF0',
      );
      assert.ok(answer, 'the probe reached the API');
      if (answer.status === 429) refused++;
      else admitted++;
    }
    return { admitted, refused };
  };

  test('every mint exactly once on the canonical chain and in the database; the rate limit is one for both APIs, kills included', async () => {
    const chips = Array.from({ length: MINTS }, (_, i) => chipOf(i));
    const results: Promise<{ chipUid: string; outcome: string }>[] = [];
    const sending = (async () => {
      for (const [i, chipUid] of chips.entries()) {
        results.push(mint(chipUid, i % 2));
        if (i % 4 === 3) await sleep(2_000);
      }
    })();

    // Killed in turn, each while mints are in flight: worker 1, API 1, worker 2, API 2 (each replaced).
    await sleep(2_000);
    process.kill(workers[0]!.pid, 'SIGKILL');
    workers[0] = undefined;
    assert.ok((await passports()) < MINTS, 'mints were unfinished when the first worker died');
    // Each replacement starts while the next process is killed (an orchestrator does not wait either).
    const replacing = startWorker().then((worker) => {
      workers[0] = worker;
    });
    await killApi(0);
    await replacing;
    process.kill(workers[1]!.pid, 'SIGKILL');
    workers[1] = undefined;
    const replacingToo = startWorker().then((worker) => {
      workers[1] = worker;
    });
    await killApi(1);
    await replacingToo;

    await sending;
    const outcomes = await Promise.all(results);
    assert.deepEqual(
      outcomes.filter((result) => result.outcome !== 'minted'),
      [],
      'every mint completed',
    );
    assert.ok(cutOff >= 2, `each API died with a mint request under way (cut off: ${cutOff})`);

    // Exactly once, counted on the canonical chain and in the database independently.
    const signer = chain.platform.address;
    await waitUntil(async () => (await chain.pendingOf(signer)).length === 0, 60_000, 'mempool empty');
    const source = ledgerSource(stack, chain);
    assertMintedExactlyOnce(await mintLedger(source, chips), MINTS);
    await assertSignerNoncesClean(source, signer);

    // One limit for both API processes: alternating between them admits LIMIT (plus what refills meanwhile),
    // not LIMIT each.
    const probeStarted = Date.now();
    const both = await probe([0, 1], 2 * LIMIT + 20);
    const refill = (ms: number) => Math.ceil((ms / 60_000) * LIMIT) + 1;
    assert.ok(both.admitted >= LIMIT - 1, `admitted ${both.admitted} of a fresh bucket of ${LIMIT}`);
    assert.ok(
      both.admitted <= LIMIT + refill(Date.now() - probeStarted),
      `admitted ${both.admitted} across two processes with a shared limit of ${LIMIT}`,
    );
    // A killed and restarted API process finds the bucket as it was (nothing kept in the process).
    const spentAt = Date.now();
    await apis[0]!.kill();
    apis[0] = await startApiProcess(apiEnv());
    const afterRestart = await probe([0], 20);
    assert.ok(
      afterRestart.admitted <= refill(Date.now() - spentAt),
      `a restarted process admitted ${afterRestart.admitted} of 20 (refill since: ${refill(Date.now() - spentAt)})`,
    );

    // The surviving workers count no nonce error (the killed ones could not say).
    for (const [i, worker] of workers.entries()) {
      await stopWorkerForTotals(worker!, `nonce errors of worker ${i + 1}`);
      workers[i] = undefined;
    }
  });
});
