import { type BaseWallet, parseEther, Wallet } from 'ethers';
import { ensureAccountInfrastructure } from '../../src/adapters/bundler/account-contracts.ts';
import { type AltoInstance, startAlto } from '../../src/adapters/bundler/alto.ts';
import { BundlerClient } from '../../src/adapters/bundler/bundler-client.ts';
import type { OperationContext } from '../../src/adapters/bundler/smart-account-operation.ts';
import { deployPaymaster, fundPaymaster } from '../../src/adapters/bundler/sponsor-paymaster.ts';
import { SponsoredOperations } from '../../src/adapters/bundler/sponsored-operations.ts';
import { startUserOperationMonitor } from '../../src/adapters/bundler/user-operation-monitor.ts';
import { UserOperationStore } from '../../src/adapters/bundler/user-operation-store.ts';
import type { PassportReader } from '../../src/adapters/chain/passport-reader.ts';
import { reorgRecordReconciler } from '../../src/adapters/chain/reorg-records.ts';
import { claimRequestOf } from '../../src/lifecycle/resale/sponsored-claim.ts';
import type { Orm } from '../../src/platform/db/orm.ts';
import { createLogger } from '../../src/platform/logging/logger.ts';
import type { TestChain } from './anvil.ts';

export const TEST_PAYMASTER_DEPOSIT = parseEther('1');

export interface TestAccounts extends OperationContext {
  bundler: OperationContext['bundler'];
  factory: string;
  alto: AltoInstance;
  /** Alto's executor: sends the bundles (and is paid back by the EntryPoint from the paymaster's deposit). */
  executor: BaseWallet;
  stop(): Promise<void>;
}

/**
 * On a test chain: the EntryPoint v0.8 and account factory, our paymaster (owned by the platform signer, funded
 * with TEST_PAYMASTER_DEPOSIT) and a real alto bundler in front of anvil.
 */
export async function startTestAccounts(chain: TestChain): Promise<TestAccounts> {
  const provider = chain.chain.provider;
  // Its own deployer and paymaster owner: the platform signer's nonces belong to its transaction manager.
  const platform = Wallet.createRandom(provider);
  await chain.rpc('anvil_setBalance', [platform.address, '0x56BC75E2D63100000']);
  const { entryPoint, factory } = await ensureAccountInfrastructure(platform);
  const sponsorKey = Wallet.createRandom();
  const paymaster = await deployPaymaster(platform, entryPoint, {
    owner: platform.address,
    sponsorSigner: sponsorKey.address,
  });
  await fundPaymaster(platform, entryPoint, paymaster, TEST_PAYMASTER_DEPOSIT);
  const executor = Wallet.createRandom(provider);
  const utility = Wallet.createRandom(provider);
  for (const wallet of [executor, utility])
    await chain.rpc('anvil_setBalance', [wallet.address, '0x56BC75E2D63100000']); // 100 ETH
  const alto = await startAlto({
    rpcUrl: chain.anvil.rpcUrl,
    entryPoint,
    executorPrivateKeys: [executor.privateKey],
    utilityPrivateKey: utility.privateKey,
  });
  const { chainId } = await provider.getNetwork();
  const accounts: TestAccounts = {
    provider,
    bundler: new BundlerClient(alto.url, entryPoint),
    entryPoint,
    factory,
    chainId,
    paymaster,
    sponsorKey,
    alto,
    executor,
    // The current bundler: a test may have replaced it (a restart after a crash).
    stop: () => accounts.alto.stop(),
  };
  return accounts;
}

/**
 * What the worker process runs over the test environment's accounts: sponsored operations recorded in `orm`'s
 * user_operations (reorged claims reconciled in the records), and the user operation monitor (every 200 ms)
 * that sends again what a reorg took back, signing it again with the buyer's re-derived key if need be.
 */
export function sponsoredOperationsOf(
  accounts: TestAccounts,
  parts: { orm: Orm; reader: PassportReader; walletMasterSecret: string | undefined },
): { operations: SponsoredOperations; monitor: { stop(): Promise<void> } } {
  const store = new UserOperationStore(parts.orm, accounts.chainId);
  const operations = new SponsoredOperations({
    ctx: accounts,
    store,
    pollIntervalMs: 100,
    reconcile: reorgRecordReconciler(parts.orm),
  });
  const monitor = startUserOperationMonitor({
    operations,
    store,
    logger: createLogger('silent'),
    everyMs: 200,
    requestFor: (record) =>
      claimRequestOf(
        { em: parts.orm.em.fork(), reader: parts.reader, walletMasterSecret: parts.walletMasterSecret },
        record,
      ),
  });
  return { operations, monitor };
}
