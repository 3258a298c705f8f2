import type { JsonRpcProvider, TransactionReceipt, Wallet } from 'ethers';
import { getAddress, keccak256 } from 'ethers';
import type { Orm } from '../db/orm.ts';
import { nonceErrorKind } from './nonce-manager.ts';
import { TransactionTimeoutError } from './transaction-sender.ts';

/** What the caller wants on chain; gas is estimated beforehand (a revert surfaces before a nonce is used). */
export interface ChainIntent {
  /** Business operations this transaction carries (one, or each passport of a mintBatch). */
  operationKeys: string[];
  method: string;
  to: string;
  data: string;
  value?: bigint;
  gasLimit: bigint;
}

export type ChainTransactionState =
  | 'signed'
  | 'sent'
  | 'mined'
  | 'confirmed'
  | 'reverted'
  | 'reorged'
  | 'superseded'
  /** Sent on a chain that was replaced since (another genesis block under the same chain id): never resent. */
  | 'abandoned';

/** One row of `chain_transactions` (one nonce of one signer), as operators and callers see it. */
export interface ChainTransaction {
  id: string;
  chainId: number;
  signer: string;
  nonce: number;
  operationKeys: string[];
  method: string;
  state: ChainTransactionState;
  txHash: string;
  txHashes: string[];
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
  blockNumber: number | null;
  blockHash: string | null;
  confirmationsRequired: number;
  broadcasts: number;
  feeBumps: number;
  drops: number;
  reorgs: number;
  supersededBy: string | null;
  lastError: string | null;
  createdAt: Date;
  confirmedAt: Date | null;
}

/** A change of transaction hash or block that the records naming the old one must follow (after a reorg). */
export interface ReorgChange {
  fromHashes: string[];
  txHash: string;
  blockNumber: number;
  blockHash: string;
}

/** What the manager reports as it goes (metrics): fixed words only, never a hash or an error text. */
export type ChainTransactionEvent = ChainTransactionState | 'dropped' | 'replaced';

export interface TransactionObserver {
  /** A transaction entered a state, was found dropped, or was re-signed with higher fees ('replaced'). */
  event(event: ChainTransactionEvent): void;
  /** A transaction reached its confirmations this long after its intent was stored (and first broadcast). */
  confirmed(seconds: number): void;
}

export interface TransactionManagerOptions {
  orm: Orm;
  provider: JsonRpcProvider;
  wallet: Wallet;
  /** Blocks on the canonical chain (its own included) before a transaction counts. */
  confirmations: number;
  pollIntervalMs?: number;
  /** A transaction the node knows but has not mined for this long is re-signed with higher fees (same nonce). */
  stuckAfterMs?: number;
  /** Each fee bump raises the fees by at least this much (nodes require 10 %). */
  feeBumpPercent?: number;
  /** Never offers more per gas than this (the signer's safety limit); default 500 gwei. */
  maxFeePerGasCap?: bigint;
  /** How many blocks back confirmed transactions are checked against the canonical chain. */
  reorgWindowBlocks?: number;
  /** Brings records that name a reorged transaction up to date (see reorg-records.ts). */
  reconcile?: (change: ReorgChange) => Promise<void>;
  /** Told of every state change (metrics). */
  observer?: TransactionObserver;
}

interface Row {
  id: string;
  chain_id: string;
  signer: string;
  nonce: string;
  operation_keys: string[];
  method: string;
  to_address: string;
  data: string;
  value: string;
  gas_limit: string;
  max_fee_per_gas: string;
  max_priority_fee_per_gas: string;
  raw: string;
  tx_hash: string;
  tx_hashes: string[];
  state: ChainTransactionState;
  block_number: string | null;
  block_hash: string | null;
  confirmations_required: number;
  broadcasts: number;
  fee_bumps: number;
  drops: number;
  reorgs: number;
  superseded_by: string | null;
  last_error: string | null;
  /** Timestamps may come back as text (the ORM's connection parses no dates): read through `new Date`. */
  created_at: Date | string;
  broadcast_at: Date | string | null;
  confirmed_at: Date | string | null;
}

interface Fees {
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

type BroadcastOutcome = 'accepted' | 'fee' | 'nonce' | 'replacement' | 'error';

const ALREADY_KNOWN = /already known|known transaction|already imported/i;
const REPLACEMENT = /replacement transaction underpriced|replacement fee too low/i;
const FEE_TOO_LOW =
  /less than block base fee|fee cap less than|max fee per gas less|transaction underpriced|fee too low|feecap/i;
const GWEI = 1_000_000_000n;
const ROUND_CONCURRENCY = 8;
/** How often the node's genesis block is compared with the one the signer's nonces belong to. */
const GENESIS_RECHECK_MS = 30_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
function largest(...values: bigint[]): bigint {
  let top = values[0]!;
  for (const value of values) if (value > top) top = value;
  return top;
}
const jsonArray = (values: string[]) => JSON.stringify(values);

/** Some operations of a batch already have their own transaction: each must be sent (or found) alone. */
export class OperationTakenError extends Error {
  readonly operationKeys: string[];
  constructor(operationKeys: string[]) {
    super(`operations already have a transaction: ${operationKeys.join(', ')}`);
    this.name = 'OperationTakenError';
    this.operationKeys = operationKeys;
  }
}

function toTransaction(row: Row): ChainTransaction {
  return {
    id: String(row.id),
    chainId: Number(row.chain_id),
    signer: row.signer,
    nonce: Number(row.nonce),
    operationKeys: row.operation_keys,
    method: row.method,
    state: row.state,
    txHash: row.tx_hash,
    txHashes: row.tx_hashes,
    maxFeePerGas: BigInt(row.max_fee_per_gas),
    maxPriorityFeePerGas: BigInt(row.max_priority_fee_per_gas),
    blockNumber: row.block_number === null ? null : Number(row.block_number),
    blockHash: row.block_hash,
    confirmationsRequired: row.confirmations_required,
    broadcasts: row.broadcasts,
    feeBumps: row.fee_bumps,
    drops: row.drops,
    reorgs: row.reorgs,
    supersededBy: row.superseded_by === null ? null : String(row.superseded_by),
    lastError: row.last_error,
    createdAt: new Date(row.created_at),
    confirmedAt: row.confirmed_at === null ? null : new Date(row.confirmed_at),
  };
}

function describe(error: unknown): string {
  const record = error as { shortMessage?: string; message?: string; error?: { message?: string } };
  return String(record?.error?.message ?? record?.shortMessage ?? record?.message ?? error).slice(0, 500);
}

/**
 * Every write of one signer on one chain, kept in PostgreSQL so that any process (and a restarted one) can see
 * and finish it.
 *
 * - **Intent before broadcast**: the nonce is taken from `chain_signers` under a row lock, and the signed
 *   transaction is stored with it in the same database transaction; only then is it broadcast. Several worker
 *   processes and hosts can send for one key: the lock orders them, the partial unique index on (chain, signer,
 *   nonce) refuses two live intents for one nonce. A process that dies before broadcasting leaves a `signed` row
 *   the next tick of any process broadcasts, so no nonce gap stays behind.
 * - **One transaction per business operation**: `send` is only called for an operation key without a live or
 *   confirmed transaction (`findByOperation`), so a retried activity waits for its earlier transaction, even
 *   after fee bumps changed its hash.
 * - **Stuck and dropped**: a transaction the node no longer knows is broadcast again (same signed bytes); one it
 *   knows but has not mined after `stuckAfterMs`, or one refused for its fees (a base-fee spike), is re-signed
 *   with higher fees under the same nonce. Every hash it was sent under is kept: whichever gets mined counts.
 * - **Confirmations on the canonical chain**: `confirmed` after `confirmations` blocks whose block hash is still
 *   the canonical one at that height. Confirmed transactions of the last `reorgWindowBlocks` are checked again:
 *   one whose block left the canonical chain becomes `reorged` and is broadcast again under its nonce (the same
 *   operation, never a second one); if that nonce was meanwhile used by another transaction, the intent is
 *   re-signed under a new nonce and the old row `superseded`. Once it is confirmed again, `reconcile` updates
 *   the records that named the old hash or block.
 */
export class TransactionManager {
  readonly stats = {
    sent: 0,
    broadcasts: 0,
    rebroadcasts: 0,
    feeBumps: 0,
    drops: 0,
    reorgs: 0,
    superseded: 0,
    nonceErrors: 0,
    confirmed: 0,
  };
  readonly address: string;
  readonly #orm: Orm;
  readonly #provider: JsonRpcProvider;
  readonly #wallet: Wallet;
  readonly #confirmations: number;
  readonly #pollIntervalMs: number;
  readonly #stuckAfterMs: number;
  readonly #bumpPercent: bigint;
  readonly #feeCap: bigint;
  readonly #window: number;
  readonly #reconcile: ((change: ReorgChange) => Promise<void>) | undefined;
  readonly #observer: TransactionObserver | undefined;
  #chainId: Promise<number> | undefined;
  #legacy: Promise<boolean> | undefined;
  /** The genesis hash last found equal to the signer row's, and when it was read from the node. */
  #genesis: { hash: string; at: number } | undefined;
  #tick: Promise<void> | undefined;
  #background: ReturnType<typeof setInterval> | undefined;
  readonly #reconciledAt = new Map<string, number>();

  constructor(options: TransactionManagerOptions) {
    this.#orm = options.orm;
    this.#provider = options.provider;
    this.#wallet = options.wallet;
    this.address = getAddress(options.wallet.address);
    this.#confirmations = Math.max(1, options.confirmations);
    this.#pollIntervalMs = options.pollIntervalMs ?? 1_000;
    this.#stuckAfterMs = options.stuckAfterMs ?? 30_000;
    this.#bumpPercent = BigInt(Math.max(11, options.feeBumpPercent ?? 25));
    this.#feeCap = options.maxFeePerGasCap ?? 500n * GWEI;
    this.#window = options.reorgWindowBlocks ?? 64;
    this.#reconcile = options.reconcile;
    this.#observer = options.observer;
  }

  /** Checks open and recently confirmed transactions every poll interval, waiter or not (reorgs, drops). */
  start(): void {
    this.#background ??= setInterval(
      () => void this.tick().catch(() => {}),
      Math.max(this.#pollIntervalMs, 500),
    );
    this.#background.unref?.();
  }

  stop(): void {
    if (this.#background) clearInterval(this.#background);
    this.#background = undefined;
  }

  chainId(): Promise<number> {
    this.#chainId ??= this.#provider.getNetwork().then((network) => Number(network.chainId));
    this.#chainId.catch(() => {
      this.#chainId = undefined;
    });
    return this.#chainId;
  }

  // ---- sending ----

  /**
   * Stores the intent under the next nonce, then broadcasts it. Resolves with the stored row, or with the
   * transaction another process stored for the same (single) operation meanwhile.
   */
  async send(intent: ChainIntent, supersedes?: string): Promise<ChainTransaction> {
    const chainId = await this.chainId();
    await this.#sameChain(chainId);
    const [pending, fees] = await Promise.all([
      this.#provider.getTransactionCount(this.address, 'pending'),
      this.#currentFees(),
    ]);
    const stored = await this.#orm.em.fork().transactional(async (tx) => {
      await tx.execute(
        `insert into chain_signers (chain_id, address, next_nonce) values (?, ?, ?)
         on conflict (chain_id, address) do nothing`,
        [chainId, this.address, pending],
      );
      const [signer] = await tx.execute<{ next_nonce: string }[]>(
        'select next_nonce from chain_signers where chain_id = ? and address = ? for update',
        [chainId, this.address],
      );
      // Under the signer's lock, so that two processes sending one operation at once agree: the first one sends.
      const [taken] = await tx.execute<Row[]>(
        `select * from chain_transactions
         where chain_id = ? and signer = ? and operation_keys && array(select jsonb_array_elements_text(?::jsonb))
           and state not in ('superseded', 'reverted', 'abandoned') and id <> ?
         order by id desc limit 1`,
        [chainId, this.address, jsonArray(intent.operationKeys), supersedes ?? 0],
      );
      if (taken) {
        if (intent.operationKeys.length === 1) return { existing: taken, inserted: undefined };
        throw new OperationTakenError(
          intent.operationKeys.filter((key) => taken.operation_keys.includes(key)),
        );
      }
      // The node's pending count only exceeds ours when something else sent with this key.
      const nonce = Math.max(Number(signer!.next_nonce), pending);
      const raw = await this.#sign(chainId, intent, nonce, fees);
      const hash = keccak256(raw);
      const [inserted] = await tx.execute<Row[]>(
        `insert into chain_transactions (chain_id, signer, nonce, operation_keys, method, to_address, data, value,
           gas_limit, max_fee_per_gas, max_priority_fee_per_gas, raw, tx_hash, tx_hashes, state,
           confirmations_required)
         values (?, ?, ?, array(select jsonb_array_elements_text(?::jsonb)), ?, ?, ?, ?, ?, ?, ?, ?, ?, array[?]::text[],
           'signed', ?)
         returning *`,
        [
          chainId,
          this.address,
          nonce,
          jsonArray(intent.operationKeys),
          intent.method,
          getAddress(intent.to),
          intent.data,
          (intent.value ?? 0n).toString(),
          intent.gasLimit.toString(),
          fees.maxFeePerGas.toString(),
          fees.maxPriorityFeePerGas.toString(),
          raw,
          hash,
          hash,
          this.#confirmations,
        ],
      );
      await tx.execute(
        'update chain_signers set next_nonce = ?, updated_at = now() where chain_id = ? and address = ?',
        [nonce + 1, chainId, this.address],
      );
      if (supersedes) {
        await tx.execute(
          `update chain_transactions set state = 'superseded', superseded_by = ?, updated_at = now() where id = ?`,
          [inserted!.id, supersedes],
        );
      }
      return { existing: undefined, inserted: inserted! };
    });
    if (stored.existing) return toTransaction(stored.existing);
    if (supersedes) this.#emit('superseded');
    const row = stored.inserted!;
    this.stats.sent++;
    this.#emit('signed');
    const outcome = await this.#broadcastFresh(row);
    if (outcome === 'nonce') this.stats.nonceErrors++;
    return toTransaction((await this.#load(row.id)) ?? row);
  }

  /** The live or confirmed transaction carrying an operation (not a superseded or reverted one). */
  async findByOperation(key: string): Promise<ChainTransaction | undefined> {
    const rows = await this.#orm.em.fork().execute<Row[]>(
      `select * from chain_transactions
       where chain_id = ? and signer = ? and operation_keys @> array[?]::text[]
         and state not in ('superseded', 'reverted', 'abandoned')
       order by id desc limit 1`,
      [await this.chainId(), this.address, key],
    );
    return rows[0] ? toTransaction(rows[0]) : undefined;
  }

  /** The transaction sent under `txHash` at any time (a fee bump or a new nonce since: its current row). */
  async findByHash(txHash: string): Promise<ChainTransaction | undefined> {
    const rows = await this.#orm.em.fork().execute<Row[]>(
      `select * from chain_transactions where tx_hashes @> array[?]::text[] and chain_id = ? and signer = ?
       order by id desc limit 1`,
      [txHash.toLowerCase(), await this.chainId(), this.address],
    );
    const row = rows[0] ? await this.#current(rows[0]) : undefined;
    return row ? toTransaction(row) : undefined;
  }

  /** Waits until the transaction (or the one that superseded it) is confirmed or reverted; its receipt. */
  async waitFor(
    id: string,
    timeoutMs: number,
  ): Promise<{ transaction: ChainTransaction; receipt: TransactionReceipt }> {
    const deadline = Date.now() + timeoutMs;
    let last: Row | undefined;
    for (;;) {
      try {
        await this.tick();
      } catch {
        // An RPC or database hiccup: the next round tries again until the deadline.
      }
      last = await this.#load(id).catch(() => last);
      if (last) last = await this.#current(last);
      if (last?.state === 'abandoned')
        throw new Error(`transaction ${last.tx_hash} was abandoned: ${last.last_error}`);
      if (last && (last.state === 'confirmed' || last.state === 'reverted')) {
        const receipt = await this.#provider.getTransactionReceipt(last.tx_hash).catch(() => null);
        if (receipt && receipt.blockHash === last.block_hash)
          return { transaction: toTransaction(last), receipt };
      }
      if (Date.now() >= deadline)
        throw new TransactionTimeoutError(last?.tx_hash ?? `#${id}`, timeoutMs, this.#confirmations);
      await sleep(Math.min(this.#pollIntervalMs, Math.max(0, deadline - Date.now())));
    }
  }

  /** Transactions of this signer, newest first (operators: also the `chain_transactions_overview` view). */
  async list(
    options: { states?: ChainTransactionState[]; limit?: number } = {},
  ): Promise<ChainTransaction[]> {
    const states = options.states ?? [];
    const rows = await this.#orm.em.fork().execute<Row[]>(
      `select * from chain_transactions where chain_id = ? and signer = ?
         and (cardinality(array(select jsonb_array_elements_text(?::jsonb))) = 0
              or state = any(array(select jsonb_array_elements_text(?::jsonb))))
       order by id desc limit ?`,
      [
        await this.chainId(),
        this.address,
        jsonArray(states),
        jsonArray(states),
        Math.min(options.limit ?? 100, 1000),
      ],
    );
    return rows.map(toTransaction);
  }

  // ---- monitoring ----

  /** One round over the open and recently confirmed transactions; concurrent callers share it. */
  tick(): Promise<void> {
    this.#tick ??= this.#round().finally(() => {
      this.#tick = undefined;
    });
    return this.#tick;
  }

  async #round(): Promise<void> {
    const chainId = await this.chainId();
    await this.#sameChain(chainId);
    // The account's mined nonce count first: a nonce below it with none of our hashes mined was used by another
    // transaction (read before the receipts, so a transaction mined in between is seen as mined).
    const [head, minedCount] = await Promise.all([
      this.#provider.getBlockNumber(),
      this.#provider.getTransactionCount(this.address, 'latest'),
    ]);
    const rows = await this.#orm.em.fork().execute<Row[]>(
      `select * from chain_transactions where chain_id = ? and signer = ?
         and (state in ('signed', 'sent', 'mined', 'reorged')
              or (state in ('confirmed', 'reverted') and (block_number >= ? or block_number is null)))
       order by nonce`,
      [chainId, this.address, head - this.#window],
    );
    const canonical = new Map<number, Promise<string | null>>();
    const blockHash = (number: number) => {
      let known = canonical.get(number);
      if (!known) {
        known = this.#provider.getBlock(number).then((block) => block?.hash ?? null);
        canonical.set(number, known);
      }
      return known;
    };
    // Rows are independent: checked ROUND_CONCURRENCY at a time (a remote node answers in tens of ms each).
    let next = 0;
    const checker = async () => {
      while (next < rows.length) {
        const row = rows[next++]!;
        try {
          await this.#check(row, head, minedCount, blockHash);
        } catch (error) {
          await this.#note(row.id, describe(error));
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(ROUND_CONCURRENCY, rows.length) }, checker));
  }

  async #check(
    row: Row,
    head: number,
    minedCount: number,
    blockHash: (number: number) => Promise<string | null>,
  ): Promise<void> {
    const settled = row.state === 'confirmed' || row.state === 'reverted';
    if (
      settled &&
      row.block_number !== null &&
      (await blockHash(Number(row.block_number))) === row.block_hash
    ) {
      if (row.reorgs > 0) await this.#reconcileLater(row);
      return;
    }
    const receipt = await this.#receipt(row);
    if (receipt && (await blockHash(receipt.blockNumber)) === receipt.blockHash) {
      const depth = head - receipt.blockNumber + 1;
      const state: ChainTransactionState =
        depth < this.#confirmations ? 'mined' : receipt.status === 1 ? 'confirmed' : 'reverted';
      if (state === row.state && receipt.blockHash === row.block_hash) return;
      const [updated] = await this.#orm.em.fork().execute<Row[]>(
        `update chain_transactions set state = ?, tx_hash = ?, block_number = ?, block_hash = ?,
           mined_at = coalesce(mined_at, now()),
           confirmed_at = case when ? in ('confirmed', 'reverted') then now() else confirmed_at end,
           last_error = null, updated_at = now()
         where id = ? and state = ? returning *`,
        [state, receipt.hash, receipt.blockNumber, receipt.blockHash, state, row.id, row.state],
      );
      if (updated) this.#emit(state);
      if (updated && state === 'confirmed') {
        this.stats.confirmed++;
        this.#observer?.confirmed((Date.now() - new Date(updated.created_at).getTime()) / 1000);
        if (updated.reorgs > 0) await this.#reconcileNow(updated);
      }
      return;
    }
    if (settled || row.state === 'mined') {
      // Its block left the canonical chain and no canonical block holds it: send it again under its nonce.
      // Counted by the process whose update marks it (every process watches every row of the signer).
      const marked = await this.#orm.em.fork().execute<{ id: string }[]>(
        `update chain_transactions set state = 'reorged', reorgs = reorgs + 1, updated_at = now()
           where id = ? and state = ? returning id`,
        [row.id, row.state],
      );
      if (marked.length > 0) {
        this.stats.reorgs++;
        this.#emit('reorged');
      }
      row = { ...row, state: 'reorged', reorgs: row.reorgs + 1 };
    }
    if (Number(row.nonce) < minedCount && (await this.#nonceUsedElsewhere(row))) {
      // The nonce is used on the canonical chain, by none of our hashes: re-sign the intent under a new nonce.
      this.stats.superseded++;
      this.stats.nonceErrors++;
      await this.send(
        {
          operationKeys: row.operation_keys,
          method: row.method,
          to: row.to_address,
          data: row.data,
          value: BigInt(row.value),
          gasLimit: BigInt(row.gas_limit),
        },
        row.id,
      );
      return;
    }
    const known = await this.#provider.getTransaction(row.tx_hash);
    if (!known) {
      // Read again: the round's snapshot may predate this row's broadcast or a bump by another process.
      const fresh = await this.#load(row.id);
      if (!fresh || fresh.tx_hash !== row.tx_hash || fresh.state !== row.state) return;
      row = fresh;
      if (row.state === 'sent') {
        this.stats.drops++;
        this.#emit('dropped');
        await this.#orm.em
          .fork()
          .execute('update chain_transactions set drops = drops + 1 where id = ?', [row.id]);
      }
      this.stats.rebroadcasts++;
      const outcome = await this.#broadcast(row);
      if (outcome === 'fee') await this.#bump(row);
      return;
    }
    const since = new Date(row.broadcast_at ?? row.created_at).getTime();
    if (Date.now() - since >= this.#stuckAfterMs) await this.#bump(row);
  }

  // ---- internals ----

  /**
   * Makes sure the signer's nonces belong to the chain the node serves now. A chain replaced under the same id (a
   * development chain restarted without its state) has another genesis block: the signer's earlier transactions
   * are marked abandoned (broadcasting them there would repeat old writes) and its nonces start from the node's.
   */
  async #sameChain(chainId: number): Promise<void> {
    if (this.#genesis && Date.now() - this.#genesis.at < GENESIS_RECHECK_MS) return;
    const genesis = (await this.#provider.getBlock(0))?.hash;
    if (!genesis) return;
    if (this.#genesis?.hash === genesis) {
      this.#genesis.at = Date.now();
      return;
    }
    await this.#orm.em.fork().transactional(async (tx) => {
      await tx.execute(
        `insert into chain_signers (chain_id, address, next_nonce, genesis_hash) values (?, ?, 0, ?)
         on conflict (chain_id, address) do nothing`,
        [chainId, this.address, genesis],
      );
      const [signer] = await tx.execute<{ genesis_hash: string | null }[]>(
        'select genesis_hash from chain_signers where chain_id = ? and address = ? for update',
        [chainId, this.address],
      );
      if (signer!.genesis_hash === genesis) return;
      if (signer!.genesis_hash !== null) {
        const abandoned = await tx.execute<{ id: string }[]>(
          `update chain_transactions set state = 'abandoned', last_error = ?, updated_at = now()
           where chain_id = ? and signer = ? and state not in ('superseded', 'abandoned') returning id`,
          [`chain replaced: genesis ${signer!.genesis_hash} is now ${genesis}`, chainId, this.address],
        );
        for (const _ of abandoned) this.#emit('abandoned');
      }
      // next_nonce 0: the next send takes the node's pending count.
      await tx.execute(
        `update chain_signers set genesis_hash = ?,
           next_nonce = case when genesis_hash is null then next_nonce else 0 end, updated_at = now()
         where chain_id = ? and address = ?`,
        [genesis, chainId, this.address],
      );
    });
    this.#genesis = { hash: genesis, at: Date.now() };
  }

  async #broadcastFresh(row: Row): Promise<BroadcastOutcome> {
    let current = row;
    for (let attempt = 0; attempt < 4; attempt++) {
      const outcome = await this.#broadcast(current);
      if (outcome !== 'fee') return outcome;
      const bumped = await this.#bump(current);
      if (!bumped) return outcome;
      current = bumped;
    }
    return 'fee';
  }

  async #broadcast(row: Row): Promise<BroadcastOutcome> {
    this.stats.broadcasts++;
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
  async #bump(row: Row): Promise<Row | undefined> {
    const old: Fees = {
      maxFeePerGas: BigInt(row.max_fee_per_gas),
      maxPriorityFeePerGas: BigInt(row.max_priority_fee_per_gas),
    };
    const now = await this.#currentFees();
    const raise = (value: bigint) => (value * (100n + this.#bumpPercent) + 99n) / 100n;
    const tip = largest(raise(old.maxPriorityFeePerGas), now.maxPriorityFeePerGas);
    let maxFee = largest(raise(old.maxFeePerGas), now.maxFeePerGas, tip);
    if (maxFee > this.#feeCap) maxFee = this.#feeCap;
    if (maxFee <= old.maxFeePerGas || tip > maxFee) {
      await this.#note(row.id, `fee cap ${this.#feeCap} wei per gas reached`);
      return undefined;
    }
    const fees = { maxFeePerGas: maxFee, maxPriorityFeePerGas: tip };
    const raw = await this.#sign(
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
    this.stats.feeBumps++;
    this.#emit('replaced');
    await this.#broadcast(updated);
    return updated;
  }

  async #sign(chainId: number, intent: ChainIntent, nonce: number, fees: Fees): Promise<string> {
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
  async #currentFees(): Promise<Fees> {
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

  /** Asked again right now: the nonce is mined, none of our hashes is, and the node holds none of them. */
  async #nonceUsedElsewhere(row: Row): Promise<boolean> {
    const minedCount = await this.#provider.getTransactionCount(this.address, 'latest');
    if (Number(row.nonce) >= minedCount) return false;
    if (await this.#receipt(row)) return false;
    for (const hash of row.tx_hashes) if (await this.#provider.getTransaction(hash)) return false;
    return true;
  }

  async #receipt(row: Row): Promise<TransactionReceipt | null> {
    for (const hash of [...row.tx_hashes].reverse()) {
      const receipt = await this.#provider.getTransactionReceipt(hash);
      if (receipt) return receipt;
    }
    return null;
  }

  async #load(id: string): Promise<Row | undefined> {
    const rows = await this.#orm.em
      .fork()
      .execute<Row[]>('select * from chain_transactions where id = ?', [id]);
    return rows[0];
  }

  #emit(event: ChainTransactionEvent): void {
    try {
      this.#observer?.event(event);
    } catch {
      // Metrics never stop a write.
    }
  }

  /** Follows `superseded_by` to the row that carries the intent now. */
  async #current(row: Row): Promise<Row> {
    let current = row;
    for (let hops = 0; current.superseded_by !== null && hops < 16; hops++) {
      const next = await this.#load(current.superseded_by);
      if (!next) break;
      current = next;
    }
    return current;
  }

  async #note(id: string, error: string): Promise<void> {
    await this.#orm.em
      .fork()
      .execute('update chain_transactions set last_error = ?, updated_at = now() where id = ?', [error, id])
      .catch(() => {});
  }

  async #reconcileNow(row: Row): Promise<void> {
    if (!this.#reconcile || row.block_number === null || row.block_hash === null) return;
    this.#reconciledAt.set(row.id, Date.now());
    await this.#reconcile({
      fromHashes: row.tx_hashes,
      txHash: row.tx_hash,
      blockNumber: Number(row.block_number),
      blockHash: row.block_hash,
    });
  }

  /**
   * A record written from the activity's result after the reorg was reconciled still names the old block: the
   * reorged rows are reconciled again every 10 s while they are within the reorg window.
   */
  async #reconcileLater(row: Row): Promise<void> {
    const last = this.#reconciledAt.get(row.id) ?? 0;
    if (Date.now() - last >= 10_000) await this.#reconcileNow(row);
  }
}
