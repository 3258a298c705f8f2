import { type Contract, type JsonRpcProvider, keccak256, parseEther, type Wallet } from 'ethers';
import { chipHash } from '../src/adapters/chain/chip-hash.ts';

/** A raw mint that is not mined within this long fails the bench (it used to wait forever). */
export const RAW_MINT_WAIT_MS = Number(process.env.BENCH_RAW_MINT_WAIT_MS ?? 60_000);
const SEND_ATTEMPTS = 4;
const RECEIPT_POLL_MS = 50;

/** How long a transaction may go without a receipt before the node is asked whether it holds it at all. */
const GAP_CHECK_MS = 2_000;

/**
 * The receipt, asked for until it comes. Not `waitForTransaction`: it listens for the next block, and a node that
 * mines only on demand (anvil's automine) makes none after the last transaction, so a receipt that arrived just
 * before the listener did was waited for in vain (the bench failed that way with every nonce mined). Every
 * GAP_CHECK_MS without one, a transaction the node does not hold and whose nonce is not mined yet is sent again
 * (the same signed bytes): a send that was lost would otherwise leave a gap that holds every later nonce back.
 */
async function receiptOf(
  provider: JsonRpcProvider,
  tx: { hash: string; nonce: number; signed: string; from: string },
) {
  const deadline = performance.now() + RAW_MINT_WAIT_MS;
  let nextGapCheck = performance.now() + GAP_CHECK_MS;
  for (;;) {
    const receipt = await provider.getTransactionReceipt(tx.hash);
    if (receipt) return receipt;
    if (performance.now() > deadline) throw new Error('timeout');
    if (performance.now() > nextGapCheck) {
      nextGapCheck = performance.now() + GAP_CHECK_MS;
      const held = await provider.getTransaction(tx.hash);
      const mined = await provider.getTransactionCount(tx.from, 'latest');
      if (!held && mined <= tx.nonce) await provider.broadcastTransaction(tx.signed).catch(() => {});
    }
    await new Promise((resolve) => setTimeout(resolve, RECEIPT_POLL_MS));
  }
}

/**
 * The mint bench's baseline: `mintWithId` signed by a plain ethers wallet that numbers its own nonces, as a
 * hand-written client would, many in flight at once. A send that fails under load must not leave a gap: the node
 * would queue every later nonce behind it and their receipts would never come. So each transaction is signed
 * here (its hash known before it is sent); after a failed send the node is asked what it holds: the transaction
 * itself (it did arrive: wait for it), its nonce taken by an earlier run (the local count is stale: take the
 * node's pending count and sign again), or neither (the same signed bytes are sent again, filling the gap). A
 * transaction not mined within RAW_MINT_WAIT_MS fails the bench with the nonces involved.
 */
export function rawMinter(options: {
  wallet: Wallet;
  provider: JsonRpcProvider;
  contract: Contract;
  chainId: bigint;
  firstNonce: number;
}) {
  const { wallet, provider, contract, chainId } = options;
  let nextNonce = options.firstNonce;
  // Asked once and shared, as a client sending many at once would (and again after a refused send): with one
  // request per transaction, a slow answer let later nonces reach the node first.
  let feeData = provider.getFeeData();
  const sign = async (nonce: number, data: string) => {
    const fees = await feeData;
    const signed = await wallet.signTransaction({
      type: 2,
      chainId,
      to: await contract.getAddress(),
      data,
      value: parseEther('0.001'),
      nonce,
      gasLimit: 500_000,
      maxFeePerGas: fees.maxFeePerGas,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    });
    return { nonce, signed, hash: keccak256(signed) };
  };

  return async function mint(tokenId: number, chipUid: string): Promise<void> {
    const data = contract.interface.encodeFunctionData('mintWithId', [
      wallet.address,
      tokenId,
      `ipfs://raw-${tokenId}`,
      chipHash(chipUid),
    ]);
    let tx = await sign(nextNonce++, data);
    for (let attempt = 1; ; attempt++) {
      try {
        await provider.broadcastTransaction(tx.signed);
        break;
      } catch (error) {
        if (await provider.getTransaction(tx.hash)) break; // it arrived; the answer was lost
        feeData = provider.getFeeData();
        const pending = await provider.getTransactionCount(wallet.address, 'pending');
        if (attempt >= SEND_ATTEMPTS) {
          throw new Error(
            `raw ethers baseline: the mint of token ${tokenId} (nonce ${tx.nonce}) was refused ${attempt} times ` +
              `(node's pending nonce ${pending}): ${(error as Error).message}`,
          );
        }
        const mined = await provider.getTransactionCount(wallet.address, 'latest');
        if (mined > tx.nonce) {
          // The nonce was used before this run counted: resync from the node and sign again.
          nextNonce = Math.max(nextNonce, pending);
          tx = await sign(nextNonce++, data);
        }
        await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
      }
    }
    let receipt: Awaited<ReturnType<JsonRpcProvider['getTransactionReceipt']>>;
    try {
      receipt = await receiptOf(provider, { ...tx, from: wallet.address });
    } catch (error) {
      const pending = await provider.getTransactionCount(wallet.address, 'pending').catch(() => NaN);
      const mined = await provider.getTransactionCount(wallet.address, 'latest').catch(() => NaN);
      throw new Error(
        `raw ethers baseline: the mint of token ${tokenId} (nonce ${tx.nonce}) was not mined within ` +
          `${RAW_MINT_WAIT_MS / 1000} s (node: ${mined} mined, pending nonce ${pending}; a gap before it?): ` +
          (error as Error).message,
      );
    }
    if (receipt?.status !== 1) throw new Error(`raw ethers baseline: the mint of token ${tokenId} reverted`);
  };
}
