import { parseUnits } from 'ethers';
import { type Config, ENVIRONMENTS, type Environment } from '../../platform/config/config.ts';
import type { Orm } from '../../platform/db/orm.ts';
import { countChainTransaction, observeChainConfirmation } from '../../platform/observability/metrics.ts';
import type { AnvilInstance } from './anvil.ts';
import { ensureEnvironmentContracts } from './environment-contracts.ts';
import { PassportChain } from './passport-chain.ts';
import type { PassportChainOptions } from './passport-types.ts';
import { reorgRecordReconciler } from './reorg-records.ts';

export interface PassportChains {
  live: PassportChain;
  test: PassportChain;
  /** The local chain started for environments without CHAIN_RPC_URL_*, if any. */
  anvil: AnvilInstance | undefined;
  close(): Promise<void>;
}

/** The transaction manager settings of one environment's chain (metrics labelled with the environment). */
function managedOn(config: Config, orm: Orm, environment: Environment): PassportChainOptions['transactions'] {
  return {
    orm,
    reconcile: reorgRecordReconciler(orm),
    stuckAfterMs: config.chain.stuckAfterMs,
    maxFeePerGasCap: parseUnits(config.chain.maxFeeGwei.toFixed(9), 'gwei'),
    // dpp_chain_transactions_total{environment,state}, dpp_chain_confirmation_seconds{environment}
    observer: {
      event: (event) => countChainTransaction(environment, event),
      confirmed: (seconds) => observeChainConfirmation(environment, seconds),
    },
  };
}

/**
 * One PassportChain per environment, on the contract `ensureEnvironmentContracts` finds or deploys, every write
 * through a TransactionManager on the service database (chain_transactions), so several worker processes can
 * send for one key and each write survives drops, fee spikes and reorgs. The managers' monitors are started.
 */
export async function openPassportChains(
  config: Config,
  options: {
    dataDir: string;
    /** The service database, where the transaction managers keep the chain transactions. */
    orm: Orm;
    /** Fixed port for the local anvil (default: a free one). */
    anvilPort?: number;
  },
): Promise<PassportChains> {
  const { contracts, anvil } = await ensureEnvironmentContracts(config, options);
  const opened: PassportChain[] = [];
  const open = (environment: Environment): Promise<PassportChain> => {
    const contract = contracts[environment];
    return PassportChain.connect({
      rpcUrl: contract.rpcUrl,
      privateKey: contract.privateKey,
      contractAddress: contract.contractAddress,
      // Anvil mines one block per transaction: waiting for more than one confirmation would stall.
      confirmations: contract.local ? 1 : config.chain.confirmations,
      mintBatchMax: config.chain.mintBatchMax,
      ...(contract.local ? { pollIntervalMs: 100 } : {}),
      transactions: managedOn(config, options.orm, environment),
    });
  };
  try {
    for (const environment of ENVIRONMENTS) opened.push(await open(environment));
  } catch (error) {
    await Promise.all(opened.map((chain) => chain.close()));
    await anvil?.stop();
    throw error;
  }
  for (const chain of opened) chain.transactions.start();
  const [live, test] = opened as [PassportChain, PassportChain];
  return {
    live,
    test,
    anvil,
    close: async () => {
      await Promise.all(opened.map((chain) => chain.close()));
      await anvil?.stop();
    },
  };
}
