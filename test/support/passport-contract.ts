import {
  Contract,
  type ContractTransactionReceipt,
  type ContractTransactionResponse,
  id,
  type JsonFragment,
  Wallet,
  ZeroHash,
} from 'ethers';
import { decodeRevert } from '../../src/adapters/chain/errors.ts';
import type { TestChain } from './anvil.ts';

export const MINTER_ROLE = id('MINTER_ROLE');
export const ADMIN_ROLE = ZeroHash;

/** One order of the contract's `mintBatch`, as the contract takes it. */
export interface MintOrder {
  to: string;
  tokenId: bigint;
  metadataUri: string;
  chipHash: string;
  deposit: bigint;
}

/**
 * The passport contract sent to directly by one of anvil's accounts, for tests of the contract itself: calls as
 * owners, buyers, outsiders or a second minter, and calls the service never makes (a wrong `msg.value`). The
 * service's own writes go through PassportChain and its transaction manager; a raw send of the platform account
 * (granting roles at setup) must not race the adapter's sends (the manager takes the node's pending count as it
 * signs, so one before or after is fine).
 */
export const rawPassport = (t: TestChain, privateKey: string) =>
  new Contract(
    t.contractAddress,
    t.chain.artifact.abi as JsonFragment[],
    new Wallet(privateKey, t.chain.provider),
  );

/**
 * The receipt of a sent transaction, as `tx.wait()` gives it (a mined revert throws CALL_EXCEPTION). ethers'
 * wait alone can miss anvil's block: mined between its receipt check and its block poller's first look, the
 * transaction waits for a next block that, with nothing else sent, never comes (a chain test hung 300 s on a
 * busy machine). So the receipt is polled for first.
 */
export async function mined(tx: ContractTransactionResponse): Promise<ContractTransactionReceipt> {
  const deadline = Date.now() + 60_000;
  while (!(await tx.provider.getTransactionReceipt(tx.hash))) {
    if (Date.now() > deadline) throw new Error(`transaction ${tx.hash} was not mined within 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return (await tx.wait()) as ContractTransactionReceipt;
}

/** The platform account grants `role` to `account` (a raw send, waited for). */
export async function grantRole(t: TestChain, role: string, account: string): Promise<void> {
  await mined(await rawPassport(t, t.platform.privateKey).getFunction('grantRole')(role, account));
}

/** others[8] granted MINTER_ROLE and others[6] DEFAULT_ADMIN_ROLE, each as a raw sender. */
export async function rawMinterAndAdmin(t: TestChain): Promise<{ minter: Contract; admin: Contract }> {
  await grantRole(t, MINTER_ROLE, t.others[8]!.address);
  await grantRole(t, ADMIN_ROLE, t.others[6]!.address);
  return { minter: rawPassport(t, t.others[8]!.privateKey), admin: rawPassport(t, t.others[6]!.privateKey) };
}

/** What the orders' deposits add up to: the value `mintBatch` wants. */
export const depositsOf = (orders: readonly MintOrder[]) =>
  orders.reduce((total, o) => total + o.deposit, 0n);

/** Sends mintBatch from `from` and waits for it; a revert (found while estimating gas) becomes a ChainRevert. */
export async function sendMintBatch(
  from: Contract,
  orders: readonly MintOrder[],
  value = depositsOf(orders),
): Promise<ContractTransactionReceipt> {
  try {
    const tx = await from.getFunction('mintBatch')(orders, { value });
    return await mined(tx);
  } catch (error) {
    throw decodeRevert(from.interface, error) ?? error;
  }
}
