import type { JsonRpcProvider, Result, TransactionReceipt } from 'ethers';
import { getAddress, toBeHex, ZeroAddress } from 'ethers';
import { chipHash } from './chip-hash.ts';
import type { PassportArtifact } from './compile.ts';
import { ChainRevert } from './errors.ts';
import { PassportAbi } from './passport-abi.ts';
import type { MintRecord, TokenIdInput, TxResult } from './passport-types.ts';
import { toTokenId } from './token-id.ts';

/** Block timestamps remembered (blocks of recent writes). */
const RECENT_BLOCKS = 64;

/**
 * Everything read from the passport contract of one environment: its views, its mint logs, block times, and
 * what a mined transaction did (its events, or the contract's refusal behind a failed one). Sends nothing.
 */
export class PassportReader {
  readonly provider: JsonRpcProvider;
  readonly contractAddress: string;
  readonly artifact: PassportArtifact;
  readonly abi: PassportAbi;
  readonly #blockTimes = new Map<number, Promise<string>>();

  constructor(options: { provider: JsonRpcProvider; contractAddress: string; artifact: PassportArtifact }) {
    this.provider = options.provider;
    this.contractAddress = getAddress(options.contractAddress);
    this.artifact = options.artifact;
    this.abi = new PassportAbi(this.artifact.abi, this.contractAddress);
  }

  async findTokenByChip(chipUid: string): Promise<string | null> {
    const tokenId = (await this.#read('tokenOfChip', [chipHash(chipUid)]))[0] as bigint;
    return tokenId === 0n ? null : tokenId.toString();
  }

  /** The mint of a chip with its transaction, or null: one view call plus one single-block log query. */
  async findMintByChip(chipUid: string): Promise<MintRecord | null> {
    const tokenId = await this.findTokenByChip(chipUid);
    if (tokenId === null) return null;
    const block = Number((await this.#read('mintBlockOf', [BigInt(tokenId)]))[0] as bigint);
    const minted = this.abi.interface.getEvent('Minted')!;
    const logs = await this.provider.getLogs({
      address: this.contractAddress,
      fromBlock: block,
      toBlock: block,
      topics: [minted.topicHash, toBeHex(BigInt(tokenId), 32)],
    });
    const log = logs[0];
    const event = log && this.abi.events([log])[0];
    if (!log || !event) return this.#findRangeMint(tokenId, block);
    return {
      tokenId,
      chipHash: event.args.chipHash as string,
      owner: event.args.owner as string,
      metadataUri: event.args.metadataUri as string,
      deposit: event.args.deposit as bigint,
      txHash: log.transactionHash,
      blockNumber: block,
    };
  }

  /** The mint of a token minted in a range (mintRange): its block's RangeMinted event that covers it. */
  async #findRangeMint(tokenId: string, block: number): Promise<MintRecord> {
    const id = BigInt(tokenId);
    const logs = await this.provider.getLogs({
      address: this.contractAddress,
      fromBlock: block,
      toBlock: block,
      topics: [this.abi.interface.getEvent('RangeMinted')!.topicHash],
    });
    for (const log of logs) {
      const event = this.abi.events([log])[0];
      if (!event || id < (event.args.firstTokenId as bigint) || id > (event.args.lastTokenId as bigint))
        continue;
      return {
        tokenId,
        chipHash: (await this.#read('chipHashOf', [id]))[0] as string,
        owner: event.args.owner as string,
        metadataUri: `${event.args.baseUri as string}${tokenId}`,
        deposit: event.args.deposit as bigint,
        txHash: log.transactionHash,
        blockNumber: block,
      };
    }
    throw new Error(`token ${tokenId} has no Minted or RangeMinted event in block ${block}`);
  }

  /**
   * The contract's `event` logs of one token from `fromBlock` on, decoded, in chain order: how a retry learns
   * what an earlier attempt did when it lost its transaction hash. `topics` narrows by the event's further
   * indexed arguments (null: any).
   */
  async tokenEvents(
    event: string,
    tokenId: TokenIdInput,
    fromBlock: number,
    topics: (string | null)[] = [],
  ): Promise<{ args: Record<string, unknown>; transactionHash: string; blockNumber: number }[]> {
    const fragment = this.abi.interface.getEvent(event);
    if (!fragment) throw new Error(`the passport contract has no ${event} event`);
    const logs = await this.provider.getLogs({
      address: this.contractAddress,
      fromBlock,
      toBlock: 'latest',
      topics: [fragment.topicHash, toBeHex(toTokenId(tokenId), 32), ...topics],
    });
    return logs.flatMap((log) => {
      const [decoded] = this.abi.events([log]);
      return decoded
        ? [{ args: decoded.args, transactionHash: log.transactionHash, blockNumber: log.blockNumber }]
        : [];
    });
  }

  async ownerOf(tokenId: TokenIdInput): Promise<string> {
    return (await this.#read('ownerOf', [toTokenId(tokenId)]))[0] as string;
  }

  async tokenURI(tokenId: TokenIdInput): Promise<string> {
    return (await this.#read('tokenURI', [toTokenId(tokenId)]))[0] as string;
  }

  async depositOf(tokenId: TokenIdInput): Promise<bigint> {
    return (await this.#read('depositOf', [toTokenId(tokenId)]))[0] as bigint;
  }

  async isRecycled(tokenId: TokenIdInput): Promise<boolean> {
    return (await this.#read('isRecycled', [toTokenId(tokenId)]))[0] as boolean;
  }

  async claimantOf(tokenId: TokenIdInput): Promise<string | null> {
    const account = (await this.#read('claimantOf', [toTokenId(tokenId)]))[0] as string;
    return account === ZeroAddress ? null : account;
  }

  async chipHashOf(tokenId: TokenIdInput): Promise<string> {
    return (await this.#read('chipHashOf', [toTokenId(tokenId)]))[0] as string;
  }

  /** Number of passports minted (recycled ones included). */
  async totalMinted(): Promise<bigint> {
    return (await this.#read('totalMinted', []))[0] as bigint;
  }

  /** Highest token id minted so far (0: none). */
  async lastTokenId(): Promise<string> {
    return ((await this.#read('lastTokenId', []))[0] as bigint).toString();
  }

  async hasRole(role: 'admin' | 'minter', account: string): Promise<boolean> {
    const roleId =
      role === 'admin' ? `0x${'00'.repeat(32)}` : ((await this.#read('MINTER_ROLE', []))[0] as string);
    return (await this.#read('hasRole', [roleId, getAddress(account)]))[0] as boolean;
  }

  /**
   * When a block was made, as an ISO timestamp (now, if the node does not know the block). The passports of
   * one mintBatch share a block, so recent answers are kept.
   */
  blockTime(blockNumber: number): Promise<string> {
    let known = this.#blockTimes.get(blockNumber);
    if (!known) {
      known = this.provider
        .getBlock(blockNumber)
        .then((block) => new Date((block?.timestamp ?? Math.floor(Date.now() / 1000)) * 1000).toISOString());
      known.catch(() => this.#blockTimes.delete(blockNumber));
      this.#blockTimes.set(blockNumber, known);
      if (this.#blockTimes.size > RECENT_BLOCKS)
        this.#blockTimes.delete(this.#blockTimes.keys().next().value!);
    }
    return known;
  }

  /** A mined transaction's hash, block and passport events. */
  resultOf(receipt: TransactionReceipt): TxResult {
    return { txHash: receipt.hash, blockNumber: receipt.blockNumber, events: this.abi.events(receipt.logs) };
  }

  /** Replays a failed transaction on the state of its block to recover the revert reason. */
  async explainReceipt(receipt: TransactionReceipt): Promise<ChainRevert> {
    const tx = await this.provider.getTransaction(receipt.hash);
    if (tx) {
      try {
        await this.provider.call({
          from: tx.from,
          to: tx.to,
          data: tx.data,
          value: tx.value,
          blockTag: receipt.blockNumber,
        });
      } catch (error) {
        const decoded = this.abi.revert(error, receipt.hash);
        if (decoded) return decoded;
      }
    }
    return new ChainRevert({
      name: 'TransactionReverted',
      txHash: receipt.hash,
      detail: `reverted in block ${receipt.blockNumber} (gas used ${receipt.gasUsed}); replaying it does not reproduce the reason`,
    });
  }

  async #read(method: string, args: unknown[]): Promise<Result> {
    const { fragment, data } = this.abi.encode(method, args);
    try {
      return this.abi.decodeResult(fragment, await this.provider.call({ to: this.contractAddress, data }));
    } catch (error) {
      throw this.abi.revert(error) ?? error;
    }
  }
}
