import { JsonRpcProvider } from 'ethers';
import type { TestTenant } from '../test/support/api.ts';
import { mintLedger, signerNonces } from '../test/support/chain-ledger.ts';
import {
  enrollChips,
  type MintOutcome,
  mintThroughApi,
  sleep,
  waitUntil,
} from '../test/support/chain-load.ts';
import { startRealisticChain } from '../test/support/realistic-chain.ts';
import { startTestStack, type TestStack } from '../test/support/stack.ts';
import { startWorkerProcess, type WorkerProcess } from '../test/support/worker-process.ts';
import { sized } from './quick.ts';
import { collected, recordFigure } from './report/figures.ts';

const MINTS = Number(process.env.BENCH_CHAIN_MINTS ?? sized(200, 30));
const WORKERS = 2;
/** Mints leave in bursts (a factory line scanning a tray), one every block (2 s blocks; 1 s in a quick run). */
const BURST = sized(20, 3);
const BURST_EVERY_MS = sized(2_000, 1_000);
const GWEI = 1_000_000_000n;
const chipOf = (i: number) => `04CB${i.toString(16).toUpperCase().padStart(10, '0')}`;

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/**
 * `npm run bench -- chain`: MINTS mints through the API to two worker processes (worker/main.ts) that send for
 * one platform signer on a chain like a public one (2 s blocks, CHAIN_CONFIRMATIONS=2, two RPC endpoints),
 * through a base-fee spike, two transactions dropped from the mempool and a reorg of depth 3.
 *
 * Every count is taken twice, independently, from the canonical chain (Minted logs, read from the node) and
 * from the passports table (test/support/chain-ledger.ts), never from the service's own counters; only nonce
 * errors (a node refusing a nonce is seen by the sender alone) come from the workers' shutdown totals, next to
 * the node's and chain_transactions' view of the signer's nonces.
 */
export async function benchChain(): Promise<void> {
  const chain = await startRealisticChain({ blockTime: BURST_EVERY_MS / 1000 });
  const stack: TestStack = await startTestStack({
    chain,
    apiClient: 'native',
    startWorker: false,
    dispatcher: false,
    mintWaitMs: 60_000,
    apiEnv: { RATE_LIMIT_PER_MINUTE: '0' },
  });
  const workers: WorkerProcess[] = [];
  const totals: Record<string, unknown>[] = [];
  const stopWorkers = async () => {
    for (const worker of workers.splice(0)) {
      const { logs } = await worker.stop();
      const line = logs.find((entry) => entry.msg === 'chain signer totals' && entry.environment === 'test');
      if (line) totals.push(line);
    }
  };
  try {
    const workerEnv = { CHAIN_CONFIRMATIONS: '2', LOG_LEVEL: 'info' };
    // One after the other: each deploys its own live-environment contract at start (CHAIN_AUTO_DEPLOY, outside
    // the transaction manager), and two deployments from one key at once would race for its nonce.
    for (let i = 0; i < WORKERS; i++)
      workers.push(await startWorkerProcess(stack, { rpcUrl: chain.rpcUrls, env: workerEnv }));
    const startedWorkers = workers.length;
    const tenant: TestTenant = await stack.api.createTenant('Chain bench');
    const call = (method: string, path: string, body?: unknown) =>
      stack.api.call(method, path, { key: tenant.testKey, ...(body === undefined ? {} : { body }) });
    const chips = Array.from({ length: MINTS }, (_, i) => chipOf(i));
    const single = chipOf(MINTS);
    await enrollChips(call, [...chips, single]);

    const mint = (chipUid: string) => mintThroughApi(call, chipUid);

    const signer = chain.platform.address;
    const faults = { spike: '', drops: [] as string[], reorged: 0, recordedTakenBack: 0 };
    const started = performance.now();
    const results: Promise<MintOutcome>[] = [];
    const sending = (async () => {
      for (let first = 0; first < MINTS; first += BURST) {
        for (const chipUid of chips.slice(first, first + BURST)) results.push(mint(chipUid));
        await sleep(BURST_EVERY_MS);
      }
    })();
    // The faults, in the middle of the load (each waits for the state it needs).
    const waitFor = (check: () => Promise<boolean>) => waitUntil(check, 120_000, 'the bench');
    await sleep(3 * BURST_EVERY_MS);
    await waitFor(async () => (await chain.pendingOf(signer)).length > 0);
    await chain.spikeBaseFee(100n * GWEI);
    faults.spike = '100 gwei';
    await sleep(3 * BURST_EVERY_MS);
    await waitFor(async () => (await chain.pendingOf(signer)).length >= 2);
    for (const tx of (await chain.pendingOf(signer)).slice(0, 2)) {
      await chain.dropTransaction(tx.hash);
      faults.drops.push(tx.hash);
    }
    await sleep(2 * BURST_EVERY_MS);
    // A reorg that takes back transactions of ours the workers may already count as confirmed.
    // Once passports are recorded from the last two blocks (confirmed, 2 deep), so the reorg takes records back.
    await waitFor(async () => {
      const head = await chain.head();
      const [recent] = await stack.api.db.orm.em
        .fork()
        .execute<{ n: number }[]>('select count(*)::int as n from passports where mint_block >= ?', [
          head - 1,
        ]);
      return recent!.n > 0;
    });
    const removed = await chain.reorg(3);
    faults.reorged = removed.length;
    // Right after the reorg (before the workers reconcile): passports the database had from removed blocks.
    const [takenBack] = await stack.api.db.orm.em.fork().execute<{ n: number }[]>(
      `select count(*)::int as n from passports
         where lower(transaction_hash) = any(array(select jsonb_array_elements_text(?::jsonb)))`,
      [JSON.stringify(removed.map((hash) => hash.toLowerCase()))],
    );
    faults.recordedTakenBack = takenBack!.n;
    await sending;
    const outcomes = await Promise.all(results);
    const finished = performance.now();

    // Settled: nothing of the signer waiting in the node, the workers' reconciliation done (bounded wait).
    const settleStarted = performance.now();
    await waitFor(async () => (await chain.pendingOf(signer)).length === 0);
    await chain.waitBlocks(3);
    let ledger = await mintLedger(
      { orm: stack.api.db.orm, rpcUrl: chain.anvil.rpcUrl, contractAddress: chain.contractAddress },
      chips,
    );
    for (
      let i = 0;
      i < 60 && (ledger.reorgedOutLeft > 0 || ledger.mintEventsOff > 0 || ledger.recorded < MINTS);
      i++
    ) {
      await sleep(1_000);
      ledger = await mintLedger(
        { orm: stack.api.db.orm, rpcUrl: chain.anvil.rpcUrl, contractAddress: chain.contractAddress },
        chips,
      );
    }
    const settleMs = performance.now() - settleStarted;

    // One mint alone (a plain mintWithId), after the load: the single-mint gas the batches are compared with.
    const alone = await mint(single);
    if (!alone.ok) throw new Error(`the single mint failed: ${JSON.stringify(alone)}`);
    await chain.waitBlocks(1);
    const withSingle = await mintLedger(
      { orm: stack.api.db.orm, rpcUrl: chain.anvil.rpcUrl, contractAddress: chain.contractAddress },
      [single],
    );
    const [singleRow] = await stack.api.db.orm.em
      .fork()
      .execute<{ transaction_hash: string }[]>('select transaction_hash from passports where chip_uid = ?', [
        single,
      ]);
    const direct = new JsonRpcProvider(chain.anvil.rpcUrl, undefined, {
      staticNetwork: true,
      cacheTimeout: -1,
    });
    const gasOf = async (hash: string) => (await direct.getTransactionReceipt(hash))!.gasUsed;
    const singleGas = await gasOf(singleRow!.transaction_hash);
    let batchGas = 0n;
    let batchedPassports = 0;
    let batches = 0;
    let singles = 0;
    const bySize = new Map<number, { gas: bigint; transactions: number }>();
    for (const [hash, count] of ledger.mintsByTransaction) {
      const gas = await gasOf(hash);
      const size = bySize.get(count) ?? { gas: 0n, transactions: 0 };
      bySize.set(count, { gas: size.gas + gas, transactions: size.transactions + 1 });
      if (count > 1) {
        batches++;
        batchedPassports += count;
        batchGas += gas;
      } else singles++;
    }
    collected.singleMintGas = Number(singleGas);
    for (const [batchSize, { gas, transactions }] of [...bySize].sort(([a], [b]) => a - b)) {
      collected.gas.push({ batchSize, transactions, gasPerPassport: Number(gas) / batchSize / transactions });
    }
    direct.destroy();
    const ratio =
      batchedPassports === 0 ? Number.NaN : Number(batchGas) / batchedPassports / Number(singleGas);

    recordFigure({
      bench: 'chain',
      name: `gas per passport in a batch ÷ a single mint (batches of ${(batchedPassports / Math.max(batches, 1)).toFixed(0)} on average; target at 100)`,
      ours: batchedPassports ? Number(batchGas) / batchedPassports : Number.NaN,
      baseline: Number(singleGas),
      unit: 'gas',
      ratio,
      target: '≤ 0.2 at 100',
    });
    await stopWorkers();
    const nonceErrors =
      totals.length === WORKERS
        ? String(totals.reduce((sum, line) => sum + Number(line.nonceErrors ?? 0), 0))
        : `unknown (${totals.length} of ${WORKERS} workers logged their totals)`;
    const nonces = await signerNonces(
      { orm: stack.api.db.orm, rpcUrl: chain.anvil.rpcUrl, contractAddress: chain.contractAddress },
      signer,
    );
    const latencies = outcomes
      .filter((outcome) => outcome.ok)
      .map((outcome) => outcome.ms)
      .sort((a, b) => a - b);
    const failed = outcomes.filter((outcome) => !outcome.ok);
    const sum = (key: string) => totals.reduce((total, line) => total + Number(line[key] ?? 0), 0);

    console.log(
      `\nchain: ${MINTS} mints from ${WORKERS} worker processes, ${BURST_EVERY_MS / 1000} s blocks, CHAIN_CONFIRMATIONS=2, two RPC endpoints`,
    );
    console.log(`worker processes ${startedWorkers}`);
    console.log(`passports requested ${MINTS}`);
    console.log(`passports recorded ${ledger.recorded}`);
    console.log(`duplicate passports ${ledger.duplicates}`);
    if (ledger.duplicates > 0) throw new Error(`${ledger.duplicates} passports were recorded twice`);
    console.log(`reorged-out passports left recorded ${ledger.reorgedOutLeft}`);
    console.log(`nonce errors ${nonceErrors}`);
    console.log(`gas per passport, batch / single ${ratio.toFixed(3)}`);
    console.log(`throughput passports/s ${((MINTS * 1000) / (finished - started)).toFixed(2)}`);
    console.log(`mint latency p50 ms ${percentile(latencies, 50).toFixed(0)}`);
    console.log(`mint latency p99 ms ${percentile(latencies, 99).toFixed(0)}`);
    console.log('  details:');
    console.log(`    failed mint calls                            ${failed.length}`);
    if (failed[0])
      console.log(`    first failure                                ${JSON.stringify(failed[0])}`);
    if (ledger.missing.length > 0)
      console.log(`    not recorded (first 5)                       ${ledger.missing.slice(0, 5).join(' ')}`);
    console.log(
      `    faults                                       base fee spike to ${faults.spike}; dropped ${faults.drops.length}; reorg of depth 3 removed ${faults.reorged} transactions (${faults.recordedTakenBack} passports already recorded from them)`,
    );
    console.log(
      `    workers that sent transactions               ${totals.filter((line) => Number(line.sent) > 0).length}`,
    );
    console.log(
      `    workers saw (their totals)                   sent ${sum('sent')}, fee bumps ${sum('feeBumps')}, drops ${sum('drops')}, reorged ${sum('reorgs')}, superseded ${sum('superseded')}`,
    );
    console.log(
      `    per worker (sent / reorged / drops)          ${totals.map((line) => `${line.sent} / ${line.reorgs} / ${line.drops}`).join(', ')}`,
    );
    console.log(
      `    signer nonces (node, chain_transactions)     mined ${nonces.mined}, pending ${nonces.pending}, nonces claimed twice ${nonces.sharedNonces}, superseded intents ${nonces.superseded}`,
    );
    console.log(
      `    mint transactions on the canonical chain     ${batches} mintBatch (${batchedPassports} passports), ${singles} mintWithId`,
    );
    console.log(
      `    gas                                          batch ${batchedPassports ? (Number(batchGas) / batchedPassports).toFixed(0) : 'n/a'} per passport, single ${singleGas}`,
    );
    console.log(`    MINT history entries naming a non-canonical tx ${ledger.mintEventsOff}`);
    console.log(`    settled after the last mint in               ${(settleMs / 1000).toFixed(1)} s`);
    console.log(
      `    single mint recorded (ledger)                ${withSingle.recorded === 1 ? 'yes' : 'no'}`,
    );
  } finally {
    await stopWorkers().catch(() => {});
    await stack.close();
  }
}
