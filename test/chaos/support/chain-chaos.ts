import assert from 'node:assert/strict';
import type { TestTenant } from '../../support/api.ts';
import { type ChainLedgerSource, type MintLedger, signerNonces } from '../../support/chain-ledger.ts';
import { type RealisticChain, startRealisticChain } from '../../support/realistic-chain.ts';
import { startTestStack, type TestStack } from '../../support/stack.ts';
import { startWorkerProcess, type WorkerProcess } from '../../support/worker-process.ts';

/**
 * What the chain scenarios share: a chain with 2 s blocks, a stack without its own worker and dispatcher (no rate
 * limit, mints waited on for up to a minute), one tenant, and the production worker process over both RPC
 * endpoints of the chain with CHAIN_CONFIRMATIONS=2.
 */
export async function startChainScenario(
  tenantName: string,
): Promise<{ chain: RealisticChain; stack: TestStack; tenant: TestTenant; worker: WorkerProcess }> {
  const chain = await startRealisticChain({ blockTime: 2 });
  const stack = await startTestStack({
    chain,
    startWorker: false,
    dispatcher: false,
    apiClient: 'native',
    mintWaitMs: 60_000,
    apiEnv: { RATE_LIMIT_PER_MINUTE: '0' },
  });
  const tenant = await stack.api.createTenant(tenantName);
  const worker = await startWorkerProcess(stack, {
    rpcUrl: chain.rpcUrls,
    env: { CHAIN_CONFIRMATIONS: '2' },
  });
  return { chain, stack, tenant, worker };
}

/** The database of the stack and the node itself (not a proxy a scenario may cut), for the ledger counts. */
export function ledgerSource(stack: TestStack, chain: RealisticChain): ChainLedgerSource {
  return { orm: stack.api.db.orm, rpcUrl: chain.anvil.rpcUrl, contractAddress: chain.contractAddress };
}

/** Each of `mints` mints recorded exactly once, on the canonical chain and in the database. */
export function assertMintedExactlyOnce(ledger: MintLedger, mints: number): void {
  assert.deepEqual(
    {
      recorded: ledger.recorded,
      duplicates: ledger.duplicates,
      reorgedOutLeft: ledger.reorgedOutLeft,
      mintEventsOff: ledger.mintEventsOff,
      missing: ledger.missing,
    },
    { recorded: mints, duplicates: 0, reorgedOutLeft: 0, mintEventsOff: 0, missing: [] },
  );
}

/** No transaction of `signer` stuck behind a nonce gap, and no nonce claimed by two live intents. */
export async function assertSignerNoncesClean(source: ChainLedgerSource, signer: string): Promise<void> {
  const nonces = await signerNonces(source, signer);
  assert.equal(nonces.pending, nonces.mined, 'no transaction stuck behind a nonce gap');
  assert.equal(nonces.sharedNonces, 0, 'no nonce claimed by two live intents');
}

/**
 * Stops the worker process (SIGTERM) and returns the chain signer totals it logged for the test environment;
 * asserts it logged them and counted no nonce error.
 */
export async function stopWorkerForTotals(
  worker: WorkerProcess,
  nonceErrorsMessage = 'nonce errors',
): Promise<Record<string, unknown>> {
  const { logs } = await worker.stop();
  const totals = logs.find((line) => line.msg === 'chain signer totals' && line.environment === 'test');
  assert.ok(totals, 'the worker logged its totals');
  assert.equal(Number(totals.nonceErrors), 0, nonceErrorsMessage);
  return totals;
}
