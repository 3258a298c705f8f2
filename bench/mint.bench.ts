import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode, Worker } from '@temporalio/worker';
import { Contract, Wallet } from 'ethers';
import { createChainProvider } from '../src/adapters/chain/passport-chain.ts';
import { bundlerLogger } from '../src/adapters/temporal/runtime.ts';
import { FACTORY_DEFAULT_KEY, generateSun } from '../src/standards/sun/index.ts';
import { startTestStack } from '../test/support/stack.ts';
import { startWorkerProcess } from '../test/support/worker-process.ts';
import { workerTuning } from '../worker/worker.ts';
import { cpuPerOperation, sampleProcesses, sampleThreads } from './cpu.ts';
import { noopActivities } from './noop/noop-activities.ts';
import { sized } from './quick.ts';
import { rawMinter } from './raw-minter.ts';
import { atLeast, recordFigure } from './report/figures.ts';
import { measuredPhase, rate, report } from './setup.ts';
import { mintStepTimeline } from './step-timeline.ts';

const NOOP_TASK_QUEUE = 'bench-noop';

const CONCURRENCY = sized(50, 10);
const WARMUP = sized(10, 2);
/** Both sides are measured this many times, alternating; the figures are the medians (the machine is noisy). */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? sized(3, 1));
const keys = { metaReadKey: FACTORY_DEFAULT_KEY, fileReadKey: FACTORY_DEFAULT_KEY };
const uidOf = (prefix: number, i: number) =>
  `04${prefix.toString(16).padStart(2, '0')}${i.toString(16).padStart(10, '0')}`.toUpperCase();

/**
 * Mint workflows (HTTP → workflow → verify tap, IPFS, chain, database) against raw ethers mints on the
 * same anvil, both 50 at a time. Target: ratio ≥ 0.5 with zero nonce errors. Also against no-op workflows of
 * the mint's shape (bench/noop: the same workflow and activity tasks, no work) on the same Temporal server,
 * 50 at a time: the engine's floor (target: mint ÷ no-op ≥ 0.8).
 *
 * Both sides first run a warm-up round of WARMUP mints (other chips and token ids) that is not measured, so
 * neither side is timed while its code paths are still being compiled; then each side is timed the same way
 * (first request sent to last receipt / last 201 received), ROUNDS times alternating, and the medians are
 * reported with the CPU each process (and the worker's threads) spent per mint, which says where to look.
 */
export async function benchMint(): Promise<void> {
  // Shaped like production: the API in this process, the worker (worker/main.ts) in its own.
  const stack = await startTestStack({ apiClient: 'native', startWorker: false, dispatcher: false });
  const profiles = process.env.BENCH_CPU_PROFILE;
  const worker = await startWorkerProcess(stack, {
    execArgv: profiles ? ['--cpu-prof', `--cpu-prof-dir=${profiles}/worker-process`] : [],
  });
  let stopped: ReturnType<typeof worker.stop> | undefined;
  const stopWorker = () => {
    stopped ??= worker.stop();
    return stopped;
  };
  /** The worker logs its signer's totals when it shuts down. */
  const workerTotals = async () => {
    const { logs } = await stopWorker();
    const totals = logs.find((line) => line.msg === 'chain signer totals' && line.environment === 'test');
    const mints = totals?.mints as { batches: number; batchedOrders: number; orders: number } | undefined;
    return {
      nonceErrors: totals ? Number(totals.nonceErrors) : 'unknown (the worker logged no totals)',
      batching: mints
        ? `${mints.orders} mints, ${mints.batchedOrders} of them in ${mints.batches} batch transactions`
        : 'unknown',
    };
  };
  try {
    const tenant = await stack.api.createTenant('Bench');
    const warmupChips = Array.from({ length: WARMUP }, (_, i) => uidOf(0xa1, i));
    const roundChips = Array.from({ length: ROUNDS }, (_, round) =>
      Array.from({ length: CONCURRENCY }, (_, i) => uidOf(0xa0, round * CONCURRENCY + i)),
    );
    for (const chipUid of [...warmupChips, ...roundChips.flat()]) {
      await stack.api.call('POST', '/v1/dpp/enroll', { key: tenant.testKey, body: { chipUid } });
    }

    // Raw baseline: the same contract call signed by a plain ethers wallet with local nonces.
    const provider = createChainProvider(stack.chain.anvil.rpcUrl, 50);
    const minter = new Wallet(stack.chain.others[0]!.privateKey, provider);
    const admin = stack.chain.connect(stack.chain.platform.privateKey);
    const minterRole = (await admin.provider.call({
      to: stack.chain.contractAddress,
      data: new Contract(
        stack.chain.contractAddress,
        admin.artifact.abi as never,
      ).interface.encodeFunctionData('MINTER_ROLE'),
    })) as string;
    const roleGrant = new Contract(
      stack.chain.contractAddress,
      admin.artifact.abi as never,
      new Wallet(stack.chain.platform.privateKey, provider),
    );
    await (await roleGrant.getFunction('grantRole')(minterRole, minter.address)).wait();
    const rawMint = rawMinter({
      wallet: minter,
      provider,
      contract: new Contract(stack.chain.contractAddress, admin.artifact.abi as never, minter),
      chainId: (await provider.getNetwork()).chainId,
      firstNonce: await provider.getTransactionCount(minter.address, 'pending'),
    });
    const rawMints = (first: number, count: number) =>
      Promise.all(
        Array.from({ length: count }, (_, i) => rawMint(1_000_000 + first + i, uidOf(0xb0, first + i))),
      );
    const workflowMints = (uids: string[]) =>
      Promise.all(
        uids.map((chipUid, i) => {
          const tap = generateSun({ uid: chipUid, counter: 1 + i, keys });
          return stack.api.call('POST', '/v1/dpp/mint', {
            key: tenant.testKey,
            body: {
              name: `Bench item ${i}`,
              chipUid,
              nfcData: `picc_data=${tap.piccData}&cmac=${tap.cmac}`,
              custom_dpp_data: { conformity_url: 'https://bench.example/doc.pdf' },
            },
          });
        }),
      );

    // The no-op worker: same server, same tuning, its own task queue (in this process, idle while mints run).
    const noopWorker = await Worker.create({
      connection: stack.temporal.nativeConnection,
      namespace: stack.temporal.namespace ?? 'default',
      taskQueue: NOOP_TASK_QUEUE,
      workflowBundle: await bundleWorkflowCode({
        workflowsPath: fileURLToPath(new URL('./noop/noop-workflow.ts', import.meta.url)),
        logger: bundlerLogger(),
      }),
      activities: noopActivities(),
      ...workerTuning,
    });
    const noopRunning = noopWorker.run();
    let noopRun = 0;
    const noopWorkflows = () =>
      Promise.all(
        Array.from({ length: CONCURRENCY }, () => {
          const id = `noop-${noopRun++}`;
          return stack.temporal.client.workflow.execute('noopMint', {
            taskQueue: NOOP_TASK_QUEUE,
            workflowId: id,
            args: [id],
          });
        }),
      );

    await rawMints(0, WARMUP);
    const warmup = await workflowMints(warmupChips);
    await noopWorkflows();
    const rounds: { raw: number; workflows: number; noop: number; failed: typeof warmup }[] = [];
    let cpu = { processes: '', threads: '', steps: '' };
    let noopCpu = '';
    for (const [round, chips] of roundChips.entries()) {
      const rawStarted = performance.now();
      await measuredPhase(`raw-mints-${round + 1}`, () =>
        rawMints(WARMUP + round * CONCURRENCY, CONCURRENCY),
      );
      const raw = rate(CONCURRENCY, performance.now() - rawStarted);
      const noopProcesses = sampleProcesses();
      const noopStarted = performance.now();
      await measuredPhase(`noop-workflows-${round + 1}`, noopWorkflows);
      const noop = rate(CONCURRENCY, performance.now() - noopStarted);
      if (round === roundChips.length - 1) {
        noopCpu = cpuPerOperation(noopProcesses, sampleProcesses(), CONCURRENCY);
      }

      const processes = sampleProcesses();
      const threads = sampleThreads(worker.pid);
      const started = performance.now();
      const answers = await measuredPhase(`mint-workflows-${round + 1}`, () => workflowMints(chips));
      const workflows = rate(CONCURRENCY, performance.now() - started);
      if (round === roundChips.length - 1) {
        cpu = {
          processes: cpuPerOperation(processes, sampleProcesses(), CONCURRENCY),
          threads: cpuPerOperation(threads, sampleThreads(worker.pid), CONCURRENCY),
          steps: await mintStepTimeline(
            stack.temporal.client,
            chips.map((chipUid) => `mint:test:${chipUid}`),
          ),
        };
      }
      rounds.push({ raw, workflows, noop, failed: answers.filter((a) => a.status !== 201) });
    }
    provider.destroy();
    noopWorker.shutdown();
    await noopRunning;

    const failed = [...warmup.filter((a) => a.status !== 201), ...rounds.flatMap((r) => r.failed)];
    const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const totals = await workerTotals();
    const mintRate = median(rounds.map((r) => r.workflows));
    recordFigure({
      bench: 'mint',
      name: `mint ÷ no-op workflow of the same shape (${CONCURRENCY} concurrent)`,
      ours: mintRate,
      baseline: median(rounds.map((r) => r.noop)),
      unit: 'mints/s',
      ratio: median(rounds.map((r) => r.workflows / r.noop)),
      ...atLeast(0.8),
    });
    recordFigure({
      bench: 'mint',
      name: `mint ÷ raw ethers (${CONCURRENCY} concurrent; the engine's floor)`,
      ours: mintRate,
      baseline: median(rounds.map((r) => r.raw)),
      unit: 'mints/s',
      ratio: median(rounds.map((r) => r.workflows / r.raw)),
      target: null,
    });
    report(
      `mint: ${CONCURRENCY} concurrent, median of ${ROUNDS} rounds (after ${WARMUP} warm-up mints on each side)`,
      {
        'raw ethers mints/s (baseline)': median(rounds.map((r) => r.raw)),
        'mint workflows/s (HTTP → workflow → chain)': median(rounds.map((r) => r.workflows)),
        'ratio workflows / raw (target ≥ 0.5)': median(rounds.map((r) => r.workflows / r.raw)),
        'ratios per round': rounds.map((r) => (r.workflows / r.raw).toFixed(2)).join(' '),
        'no-op workflows/s (same tasks, no work)': median(rounds.map((r) => r.noop)),
        'ratio mint / no-op (target ≥ 0.8)': median(rounds.map((r) => r.workflows / r.noop)),
        'mint / no-op per round': rounds.map((r) => (r.workflows / r.noop).toFixed(2)).join(' '),
        'CPU ms per no-op workflow, by process (its worker is this process)': noopCpu || 'n/a',
        'failed mints': failed.length,
        'nonce errors (worker, whole run)': totals.nonceErrors,
        'chain transactions (worker, whole run)': totals.batching,
        'CPU ms per workflow mint, by process': cpu.processes || 'n/a',
        'CPU ms per workflow mint, worker threads': cpu.threads || 'n/a',
        'wall ms p50/p90 of a workflow mint': cpu.steps,
      },
    );
    if (failed.length > 0)
      throw new Error(
        `${failed.length} mints failed; the first: ${failed[0]!.status} ${failed[0]!.text.slice(0, 300)}`,
      );
  } finally {
    await stopWorker();
    await stack.close();
  }
}
