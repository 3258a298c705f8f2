import assert from 'node:assert/strict';
import { Wallet } from 'ethers';
import {
  type AnvilAccount,
  type AnvilInstance,
  type StartAnvilOptions,
  startAnvil,
} from '../../src/adapters/chain/anvil.ts';
import { deployPassport, type PassportRoles } from '../../src/adapters/chain/deployment.ts';
import { ChainRevert } from '../../src/adapters/chain/errors.ts';
import {
  createChainProvider,
  PassportChain,
  type PassportChainOptions,
} from '../../src/adapters/chain/passport-chain.ts';
import type { Orm } from '../../src/platform/db/orm.ts';
import { createTestDatabase } from './database.ts';

export interface TestChain {
  anvil: AnvilInstance;
  contractAddress: string;
  /** Account 0: the platform signer (admin and minter unless roles were given). */
  platform: AnvilAccount;
  /** Accounts 1..9, free for owners, buyers, recyclers. */
  others: AnvilAccount[];
  /** The database the adapters' transaction managers use unless `connect` is given another one. */
  orm: Orm;
  /** PassportChain for the platform signer. */
  chain: PassportChain;
  /**
   * Another adapter on the same contract (own provider and transaction manager; by default on `orm`, so adapters
   * of one key share its nonces as worker processes of one service do).
   */
  connect(privateKey: string, options?: Partial<PassportChainOptions>): PassportChain;
  /** Raw JSON-RPC call to anvil (evm_mine, evm_setAutomine, ...). */
  rpc(method: string, params?: unknown[]): Promise<unknown>;
  stop(): Promise<void>;
}

/**
 * A fresh anvil with the passport contract deployed, and a fresh test database for the adapters' transaction
 * managers (every chain write goes through one); stop() closes every adapter it made and drops the database.
 */
export async function startTestChain(
  options: { anvil?: StartAnvilOptions; roles?: (accounts: AnvilAccount[]) => PassportRoles } = {},
): Promise<TestChain> {
  const [anvil, db] = await Promise.all([startAnvil(options.anvil), createTestDatabase()]);
  const [platform, ...others] = anvil.accounts as [AnvilAccount, ...AnvilAccount[]];
  const provider = createChainProvider(anvil.rpcUrl, 50);
  const roles = options.roles?.(anvil.accounts) ?? { admin: platform.address, minter: platform.address };
  const { address } = await deployPassport(new Wallet(platform.privateKey, provider), roles);
  const adapters: PassportChain[] = [];
  const connect = (privateKey: string, extra: Partial<PassportChainOptions> = {}) => {
    const adapter = new PassportChain({
      rpcUrl: anvil.rpcUrl,
      privateKey,
      contractAddress: address,
      pollIntervalMs: 50,
      receiptTimeoutMs: 20_000,
      ...extra,
      transactions: { orm: db.orm, ...extra.transactions },
    });
    adapters.push(adapter);
    return adapter;
  };
  return {
    anvil,
    contractAddress: address,
    platform,
    others,
    orm: db.orm,
    chain: connect(platform.privateKey),
    connect,
    rpc: (method, params = []) => provider.send(method, params),
    stop: async () => {
      await Promise.all(adapters.map((adapter) => adapter.close()));
      provider.destroy();
      await anvil.stop();
      await db.drop();
    },
  };
}

/** Asserts that `promise` rejects with the decoded contract error `name` (and `args`, if given). */
export async function assertReverts(
  promise: Promise<unknown>,
  name: string,
  args?: Record<string, unknown>,
): Promise<ChainRevert> {
  let caught: unknown;
  await assert.rejects(promise, (error) => {
    caught = error;
    return true;
  });
  assert.ok(caught instanceof ChainRevert, `expected ChainRevert ${name}, got ${String(caught)}`);
  assert.equal(caught.name, name, caught.message);
  if (args) assert.deepEqual(caught.args, args);
  return caught;
}
