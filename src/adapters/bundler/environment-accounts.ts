import { keccak256, parseEther, toUtf8Bytes, Wallet } from 'ethers';
import { type Config, ENVIRONMENTS, type Environment } from '../../platform/config/config.ts';
import type { Orm } from '../../platform/db/orm.ts';
import type { Logger } from '../../platform/logging/logger.ts';
import type { PassportChains } from '../chain/environment-chains.ts';
import { reorgRecordReconciler } from '../chain/reorg-records.ts';
import { ENTRY_POINT_ADDRESS, ensureAccountInfrastructure } from './account-contracts.ts';
import { type AltoInstance, startAlto } from './alto.ts';
import { BundlerClient } from './bundler-client.ts';
import type { OperationContext } from './smart-account-operation.ts';
import { ensurePaymaster, fundPaymaster } from './sponsor-paymaster.ts';
import { SponsoredOperations, type SponsoredRequest } from './sponsored-operations.ts';
import { startUserOperationMonitor } from './user-operation-monitor.ts';
import { type UserOperationRecord, UserOperationStore } from './user-operation-store.ts';

export interface EnvironmentAccounts {
  operations: Partial<Record<Environment, SponsoredOperations>>;
  /** The bundler started for the local anvil, if any. */
  alto: AltoInstance | undefined;
  close(): Promise<void>;
}

/** What `npm start` keeps in the paymaster's deposit on the local chain. */
const DEV_PAYMASTER_DEPOSIT = parseEther('10');
// Anvil dev accounts 0 and 1 sign for live and test (environment-contracts.ts); 2 deploys and owns the account
// contracts, 3 is the bundler's executor.
const DEV_DEPLOYER = 2;
const DEV_EXECUTOR = 3;

/**
 * Sponsored user operations per environment. Configured (BUNDLER_URL_*, PAYMASTER_ADDRESS_*,
 * SPONSOR_PRIVATE_KEY_*): that bundler and paymaster. On the local anvil of `npm start`: the EntryPoint, factory
 * and our paymaster deployed (once; they survive in anvil's state) and funded, and a real alto started in front
 * of anvil. Otherwise none: that environment's claims are relayed by the platform.
 */
export async function openEnvironmentAccounts(
  config: Config,
  chains: PassportChains,
  orm: Orm,
  watch?: {
    logger: Logger;
    requestFor?: (
      environment: Environment,
      record: UserOperationRecord,
    ) => Promise<SponsoredRequest | undefined>;
  },
): Promise<EnvironmentAccounts> {
  const operations: EnvironmentAccounts['operations'] = {};
  const monitors: { stop(): Promise<void> }[] = [];
  let alto: AltoInstance | undefined;
  try {
    for (const environment of ENVIRONMENTS) {
      const settings = config.chain[environment];
      const provider = chains[environment].provider;
      const chainId = (await provider.getNetwork()).chainId;
      const base = { provider, entryPoint: ENTRY_POINT_ADDRESS, chainId };
      let ctx: OperationContext | undefined;
      const { bundlerUrl, paymasterAddress, sponsorPrivateKey } = settings.accounts;
      if (bundlerUrl && paymasterAddress && sponsorPrivateKey) {
        ctx = {
          ...base,
          bundler: new BundlerClient(bundlerUrl, ENTRY_POINT_ADDRESS),
          paymaster: paymasterAddress,
          sponsorKey: new Wallet(sponsorPrivateKey),
        };
      } else if (chains.anvil && !settings.rpcUrl) {
        const anvil = chains.anvil;
        const deployer = new Wallet(anvil.accounts[DEV_DEPLOYER]!.privateKey, provider);
        await ensureAccountInfrastructure(deployer);
        // A development sponsor key: the local chain's keys are public anyway.
        const sponsorKey = new Wallet(keccak256(toUtf8Bytes(`dpp-development-sponsor:${environment}`)));
        const paymaster = await ensurePaymaster(deployer, ENTRY_POINT_ADDRESS, {
          owner: deployer.address,
          sponsorSigner: sponsorKey.address,
        });
        await fundPaymaster(deployer, ENTRY_POINT_ADDRESS, paymaster, DEV_PAYMASTER_DEPOSIT);
        const executor = anvil.accounts[DEV_EXECUTOR]!.privateKey;
        alto ??= await startAlto({
          rpcUrl: anvil.rpcUrl,
          entryPoint: ENTRY_POINT_ADDRESS,
          executorPrivateKeys: [executor],
          utilityPrivateKey: executor,
        });
        ctx = { ...base, bundler: new BundlerClient(alto.url, ENTRY_POINT_ADDRESS), paymaster, sponsorKey };
      }
      if (!ctx) continue;
      const store = new UserOperationStore(orm, chainId);
      const sponsored = new SponsoredOperations({
        ctx,
        store,
        budget: config.chain.sponsorBudget,
        confirmations: settings.rpcUrl ? config.chain.confirmations : 1,
        pollIntervalMs: settings.rpcUrl ? 1_000 : 200,
        reconcile: reorgRecordReconciler(orm),
      });
      operations[environment] = sponsored;
      if (watch) {
        const requestFor = watch.requestFor;
        monitors.push(
          startUserOperationMonitor({
            operations: sponsored,
            store,
            logger: watch.logger,
            everyMs: settings.rpcUrl ? 5_000 : 1_000,
            ...(requestFor && { requestFor: (record) => requestFor(environment, record) }),
          }),
        );
      }
    }
  } catch (error) {
    for (const monitor of monitors) await monitor.stop();
    await alto?.stop();
    throw error;
  }
  return {
    operations,
    alto,
    close: async () => {
      for (const monitor of monitors) await monitor.stop();
      await alto?.stop();
    },
  };
}
