import { join } from 'node:path';
import { parseUnits, Wallet } from 'ethers';
import { type Config, ConfigError, ENVIRONMENTS, type Environment } from '../../platform/config/config.ts';
import type { Orm } from '../../platform/db/orm.ts';
import { countChainTransaction, observeChainConfirmation } from '../../platform/observability/metrics.ts';
import { type AnvilInstance, startAnvil } from './anvil.ts';
import { ensurePassportDeployment } from './deployment.ts';
import { createChainProvider, PassportChain } from './passport-chain.ts';
import type { PassportChainOptions } from './passport-types.ts';
import { reorgRecordReconciler } from './reorg-records.ts';

export interface PassportChains {
  live: PassportChain;
  test: PassportChain;
  /** The local chain started for environments without CHAIN_RPC_URL_*, if any. */
  anvil: AnvilInstance | undefined;
  close(): Promise<void>;
}

const ANVIL_ACCOUNT_OF: Record<Environment, number> = { live: 0, test: 1 };

/**
 * One PassportChain per environment. An environment with CHAIN_RPC_URL_{ENV} uses the configured
 * chain, contract and key (all three required). Without it, both such environments share one local
 * anvil (state kept in `dataDir/anvil-state.json`), each with its own anvil dev key and its own
 * contract, deployed on first use and whenever the chain lost it.
 */
export async function openPassportChains(
  config: Config,
  options: {
    dataDir: string;
    /** Fixed port for the local anvil (default: a free one). */
    anvilPort?: number;
    /**
     * The service database: every write then goes through a TransactionManager (chain_transactions), so several
     * worker processes can send for one key and each write survives drops, fee spikes and reorgs. Without it,
     * writes use the in-process NonceManager (one sending process per key).
     */
    orm?: Orm;
  },
): Promise<PassportChains> {
  const problems: { variable: string; message: string }[] = [];
  for (const environment of ENVIRONMENTS) {
    const settings = config.chain[environment];
    if (!settings.rpcUrl) continue;
    const suffix = environment.toUpperCase();
    if (!settings.contractAddress && !config.chain.autoDeploy)
      problems.push({
        variable: `CONTRACT_ADDRESS_${suffix}`,
        message: `required with CHAIN_RPC_URL_${suffix} (or set CHAIN_AUTO_DEPLOY=true on a development chain)`,
      });
    if (!settings.privateKey)
      problems.push({
        variable: `CHAIN_PRIVATE_KEY_${suffix}`,
        message: `required with CHAIN_RPC_URL_${suffix}`,
      });
  }
  if (problems.length > 0) throw new ConfigError(problems);

  let anvil: AnvilInstance | undefined;
  const opened: PassportChain[] = [];
  const managed = (environment: Environment): Pick<PassportChainOptions, 'transactions'> =>
    options.orm
      ? {
          transactions: {
            orm: options.orm,
            reconcile: reorgRecordReconciler(options.orm),
            stuckAfterMs: config.chain.stuckAfterMs,
            maxFeePerGasCap: parseUnits(config.chain.maxFeeGwei.toFixed(9), 'gwei'),
            // dpp_chain_transactions_total{environment,state}, dpp_chain_confirmation_seconds{environment}
            observer: {
              event: (event) => countChainTransaction(environment, event),
              confirmed: (seconds) => observeChainConfirmation(environment, seconds),
            },
          },
        }
      : {};
  const open = async (environment: Environment): Promise<PassportChain> => {
    const settings = config.chain[environment];
    if (settings.rpcUrl) {
      let contractAddress = settings.contractAddress;
      if (!contractAddress) {
        const provider = createChainProvider(settings.rpcUrl, 500);
        const deployment = await ensurePassportDeployment({
          environment,
          dataDir: options.dataDir,
          signer: new Wallet(settings.privateKey!, provider),
        });
        provider.destroy();
        contractAddress = deployment.address;
      }
      return PassportChain.connect({
        rpcUrl: settings.rpcUrl,
        privateKey: settings.privateKey!,
        contractAddress,
        confirmations: config.chain.confirmations,
        mintBatchMax: config.chain.mintBatchMax,
        ...managed(environment),
      });
    }
    anvil ??= await startAnvil({
      port: options.anvilPort,
      stateFile: join(options.dataDir, 'anvil-state.json'),
      stateIntervalSeconds: 5,
    });
    const account = anvil.accounts[ANVIL_ACCOUNT_OF[environment]]!;
    const provider = createChainProvider(anvil.rpcUrl, 100);
    const deployment = await ensurePassportDeployment({
      environment,
      dataDir: options.dataDir,
      signer: new Wallet(account.privateKey, provider),
    });
    provider.destroy();
    // Anvil mines one block per transaction: waiting for more than one confirmation would stall.
    return PassportChain.connect({
      rpcUrl: anvil.rpcUrl,
      privateKey: account.privateKey,
      contractAddress: deployment.address,
      confirmations: 1,
      mintBatchMax: config.chain.mintBatchMax,
      pollIntervalMs: 100,
      ...managed(environment),
    });
  };

  try {
    for (const environment of ENVIRONMENTS) opened.push(await open(environment));
  } catch (error) {
    await Promise.all(opened.map((chain) => chain.close()));
    await anvil?.stop();
    throw error;
  }
  for (const chain of opened) chain.transactions?.start();
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
