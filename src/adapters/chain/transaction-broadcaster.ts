import type { JsonRpcProvider, Wallet } from 'ethers';
import { getAddress, keccak256 } from 'ethers';
import type { Orm } from '../../platform/db/orm.ts';
import { nonceErrorKind } from './nonce-errors.ts';
import type { Row, TransactionStore } from './transaction-store.ts';
import type { ChainIntent, ChainTransactionEvent, Fees, TransactionStats } from './transaction-types.ts';

export type BroadcastOutcome = 'accepted' | 'fee' | 'nonce' | 'replacement' | 'error';

const ALREADY_KNOWN = /already known|known transaction|already imported/i;
const REPLACEMENT = /replacement transaction underpriced|replacement fee too low/i;
const FEE_TOO_LOW =
  /less than block base fee|fee cap less than|max fee per gas less|transaction underpriced|fee too low|feecap/i;
export const GWEI = 1_000_000_000n;
function largest(...values: bigint[]): bigint {
  let top = values[0]!;
  for (const value of values) if (value > top) top = value;
  return top;
}

export function describe(error: unknown): string {
  const record = error as { shortMessage?: string; message?: string; error?: { message?: string } };
  return String(record?.error?.message ?? record?.shortMessage ?? record?.message ?? error).slice(0, 500);
}

export interface TransactionBroadcasterOptions {
  orm: Orm;
  provider: JsonRpcProvider;
  wallet: Wallet;
  store: TransactionStore;
  /** Each fee bump raises the fees by at least this much. */
  bumpPercent: bigint;
  /** Never offers more per gas than this. */
  feeCap: bigint;
  stats: TransactionStats;
  emit: (event: ChainTransactionEvent) => void;
}

/**
 * Signs, broadcasts and replaces: fees for the next block (EIP-1559 or legacy), the node's answer to a broadcast
 * sorted into outcomes, and a fee bump that re-signs under the same nonce, every hash kept in the row.
 */
export class TransactionBroadcaster {
  readonly #orm: Orm;
  readonly #provider: JsonRpcProvider;
  readonly #wallet: Wallet;
  readonly #store: TransactionStore;
  readonly #bumpPercent: bigint;
  readonly #feeCap: bigint;
  readonly #stats: TransactionStats;
  readonly #emit: (event: ChainTransactionEvent) => void;
  #legacy: Promise<boolean> | undefined;

  constructor(options: TransactionBroadcasterOptions) {
    this.#orm = options.orm;
    this.#provider = options.provider;
    this.#wallet = options.wallet;
    this.#store = options.store;
    this.#bumpPercent = options.bumpPercent;
    this.#feeCap = options.feeCap;
    this.#stats = options.stats;
    this.#emit = options.emit;
  }

  async broadcastFresh(row: Row): Promise<BroadcastOutcome> {
    let current = row;
    for (let attempt = 0; attempt < 4; attempt++) {
      const outcome = await this.broadcast(current);
      if (outcome !== 'fee') return outcome;
      const bumped = await this.bump(current);
      if (!bumped) return outcome;
      current = bumped;
    }
    return 'fee';
  }

  async broadcast(row: Row): Promise<BroadcastOutcome> {
    this.#stats.broadcasts++;
    let outcome: BroadcastOutcome = 'accepted';
    let error: string | null = null;
    try {
      await this.#provider.send('eth_sendRawTransaction', [row.raw]);
    } catch (caught) {
      const text = describe(caught);
      if (ALREADY_KNOWN.test(text)) outcome = 'accepted';
      else if (REPLACEMENT.test(text)) outcome = 'replacement';
      else if (FEE_TOO_LOW.test(text)) outcome = 'fee';
      else if (nonceErrorKind(caught)) outcome = 'nonce';
      else if (await this.#provider.getTransaction(row.tx_hash).catch(() => null)) outcome = 'accepted';
      else outcome = 'error';
      if (outcome !== 'accepted') error = text;
    }
    if (outcome === 'accepted' && (row.state === 'signed' || row.state === 'reorged')) this.#emit('sent');
    await this.#orm.em.fork().execute(
      `update chain_transactions set broadcasts = broadcasts + 1, last_error = ?,
         state = case when ? and state in ('signed', 'reorged') then 'sent' else state end,
         broadcast_at = case when ? then now() else broadcast_at end, updated_at = now()
       where id = ?`,
      [error, outcome === 'accepted', outcome === 'accepted', row.id],
    );
    return outcome;
  }

  /** Re-signs under the same nonce with higher fees and broadcasts; undefined when the cap forbids more. */
  async bump(row: Row): Promise<Row | undefined> {
    const old: Fees = {
      maxFeePerGas: BigInt(row.max_fee_per_gas),
      maxPriorityFeePerGas: BigInt(row.max_priority_fee_per_gas),
    };
    const now = await this.currentFees();
    const raise = (value: bigint) => (value * (100n + this.#bumpPercent) + 99n) / 100n;
    const tip = largest(raise(old.maxPriorityFeePerGas), now.maxPriorityFeePerGas);
    let maxFee = largest(raise(old.maxFeePerGas), now.maxFeePerGas, tip);
    if (maxFee > this.#feeCap) maxFee = this.#feeCap;
    if (maxFee <= old.maxFeePerGas || tip > maxFee) {
      await this.#store.note(row.id, `fee cap ${this.#feeCap} wei per gas reached`);
      return undefined;
    }
    const fees = { maxFeePerGas: maxFee, maxPriorityFeePerGas: tip };
    const raw = await this.sign(
      Number(row.chain_id),
      {
        operationKeys: row.operation_keys,
        method: row.method,
        to: row.to_address,
        data: row.data,
        value: BigInt(row.value),
        gasLimit: BigInt(row.gas_limit),
      },
      Number(row.nonce),
      fees,
    );
    const hash = keccak256(raw);
    const [updated] = await this.#orm.em.fork().execute<Row[]>(
      `update chain_transactions set raw = ?, tx_hash = ?, tx_hashes = tx_hashes || array[?]::text[],
         max_fee_per_gas = ?, max_priority_fee_per_gas = ?, fee_bumps = fee_bumps + 1, broadcast_at = now(),
         updated_at = now()
       where id = ? and tx_hash = ? returning *`,
      [raw, hash, hash, maxFee.toString(), tip.toString(), row.id, row.tx_hash],
    );
    if (!updated) return undefined; // another process bumped it first
    this.#stats.feeBumps++;
    this.#emit('replaced');
    await this.broadcast(updated);
    return updated;
  }

  async sign(chainId: number, intent: ChainIntent, nonce: number, fees: Fees): Promise<string> {
    const common = {
      chainId,
      nonce,
      to: getAddress(intent.to),
      data: intent.data,
      value: intent.value ?? 0n,
      gasLimit: intent.gasLimit,
    };
    // A chain without EIP-1559 (no base fee): a legacy transaction whose gas price is the row's max fee.
    if (await this.#isLegacy())
      return this.#wallet.signTransaction({ ...common, type: 0, gasPrice: fees.maxFeePerGas });
    return this.#wallet.signTransaction({
      ...common,
      type: 2,
      maxFeePerGas: fees.maxFeePerGas,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    });
  }

  /** Whether the chain has no base fee (pre-London or a permissioned chain): legacy gas prices then. */
  #isLegacy(): Promise<boolean> {
    this.#legacy ??= (
      this.#provider.send('eth_getBlockByNumber', ['latest', false]) as Promise<{
        baseFeePerGas?: string;
      } | null>
    ).then((block) => !block?.baseFeePerGas);
    this.#legacy.catch(() => {
      this.#legacy = undefined;
    });
    return this.#legacy;
  }

  /**
   * Fees that get into the next block: twice its base fee plus the node's suggested tip; on a legacy chain the
   * node's gas price (stored as the max fee, with no tip).
   */
  async currentFees(): Promise<Fees> {
    if (await this.#isLegacy()) {
      const price = BigInt((await this.#provider.send('eth_gasPrice', [])) as string);
      return { maxFeePerGas: price > this.#feeCap ? this.#feeCap : price, maxPriorityFeePerGas: 0n };
    }
    const [pending, tipHex] = await Promise.all([
      this.#provider.send('eth_getBlockByNumber', ['pending', false]).catch(() => null) as Promise<{
        baseFeePerGas?: string;
      } | null>,
      this.#provider.send('eth_maxPriorityFeePerGas', []).catch(() => null) as Promise<string | null>,
    ]);
    let baseFee = pending?.baseFeePerGas ? BigInt(pending.baseFeePerGas) : undefined;
    if (baseFee === undefined) baseFee = (await this.#provider.getBlock('latest'))?.baseFeePerGas ?? GWEI;
    const tip = tipHex ? BigInt(tipHex) : GWEI;
    let maxFee = baseFee * 2n + tip;
    if (maxFee > this.#feeCap) maxFee = this.#feeCap;
    return { maxFeePerGas: maxFee, maxPriorityFeePerGas: tip > maxFee ? maxFee : tip };
  }
}
