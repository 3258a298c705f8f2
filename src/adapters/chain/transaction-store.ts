import type { JsonRpcProvider } from 'ethers';
import { getAddress, keccak256 } from 'ethers';
import type { Orm } from '../../platform/db/orm.ts';
import type {
  ChainIntent,
  ChainTransaction,
  ChainTransactionEvent,
  ChainTransactionState,
  Fees,
} from './transaction-types.ts';

/** One row of `chain_transactions` as PostgreSQL returns it. */
export interface Row {
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

/** How often the node's genesis block is compared with the one the signer's nonces belong to. */
const GENESIS_RECHECK_MS = 30_000;
export const jsonArray = (values: string[]) => JSON.stringify(values);

/** Some operations of a batch already have their own transaction: each must be sent (or found) alone. */
export class OperationTakenError extends Error {
  readonly operationKeys: string[];
  constructor(operationKeys: string[]) {
    super(`operations already have a transaction: ${operationKeys.join(', ')}`);
    this.name = 'OperationTakenError';
    this.operationKeys = operationKeys;
  }
}

export function toTransaction(row: Row): ChainTransaction {
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

/**
 * The PostgreSQL side of one signer on one chain: `chain_signers` (its next nonce, under a row lock, and the
 * genesis block its nonces belong to) and `chain_transactions` (one row per nonce, intent stored before broadcast).
 */
export class TransactionStore {
  readonly #orm: Orm;
  readonly #provider: JsonRpcProvider;
  readonly #address: string;
  readonly #emit: (event: ChainTransactionEvent) => void;
  /** The genesis hash last found equal to the signer row's, and when it was read from the node. */
  #genesis: { hash: string; at: number } | undefined;

  constructor(
    orm: Orm,
    provider: JsonRpcProvider,
    address: string,
    emit: (event: ChainTransactionEvent) => void,
  ) {
    this.#orm = orm;
    this.#provider = provider;
    this.#address = address;
    this.#emit = emit;
  }

  /**
   * Takes the next nonce under the signer's row lock and stores the intent signed under it (`sign`), in one
   * database transaction; or finds the transaction another process stored for the same (single) operation.
   */
  async storeIntent(
    chainId: number,
    intent: ChainIntent,
    pending: number,
    fees: Fees,
    confirmations: number,
    sign: (nonce: number) => Promise<string>,
    supersedes?: string,
  ): Promise<{ existing: Row | undefined; inserted: Row | undefined }> {
    return this.#orm.em.fork().transactional(async (tx) => {
      await tx.execute(
        `insert into chain_signers (chain_id, address, next_nonce) values (?, ?, ?)
         on conflict (chain_id, address) do nothing`,
        [chainId, this.#address, pending],
      );
      const [signer] = await tx.execute<{ next_nonce: string }[]>(
        'select next_nonce from chain_signers where chain_id = ? and address = ? for update',
        [chainId, this.#address],
      );
      // Under the signer's lock, so that two processes sending one operation at once agree: the first one sends.
      const [taken] = await tx.execute<Row[]>(
        `select * from chain_transactions
         where chain_id = ? and signer = ? and operation_keys && array(select jsonb_array_elements_text(?::jsonb))
           and state not in ('superseded', 'reverted', 'abandoned') and id <> ?
         order by id desc limit 1`,
        [chainId, this.#address, jsonArray(intent.operationKeys), supersedes ?? 0],
      );
      if (taken) {
        if (intent.operationKeys.length === 1) return { existing: taken, inserted: undefined };
        throw new OperationTakenError(
          intent.operationKeys.filter((key) => taken.operation_keys.includes(key)),
        );
      }
      // The node's pending count only exceeds ours when something else sent with this key.
      const nonce = Math.max(Number(signer!.next_nonce), pending);
      const raw = await sign(nonce);
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
          this.#address,
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
          confirmations,
        ],
      );
      await tx.execute(
        'update chain_signers set next_nonce = ?, updated_at = now() where chain_id = ? and address = ?',
        [nonce + 1, chainId, this.#address],
      );
      if (supersedes) {
        await tx.execute(
          `update chain_transactions set state = 'superseded', superseded_by = ?, updated_at = now() where id = ?`,
          [inserted!.id, supersedes],
        );
      }
      return { existing: undefined, inserted: inserted! };
    });
  }

  /** The live or confirmed row carrying an operation (not a superseded or reverted one). */
  async findByOperation(chainId: number, key: string): Promise<Row | undefined> {
    const rows = await this.#orm.em.fork().execute<Row[]>(
      `select * from chain_transactions
       where chain_id = ? and signer = ? and operation_keys @> array[?]::text[]
         and state not in ('superseded', 'reverted', 'abandoned')
       order by id desc limit 1`,
      [chainId, this.#address, key],
    );
    return rows[0];
  }

  /** The latest row ever sent under `txHash` (not followed to the row that superseded it). */
  async findByHash(chainId: number, txHash: string): Promise<Row | undefined> {
    const rows = await this.#orm.em.fork().execute<Row[]>(
      `select * from chain_transactions where tx_hashes @> array[?]::text[] and chain_id = ? and signer = ?
       order by id desc limit 1`,
      [txHash.toLowerCase(), chainId, this.#address],
    );
    return rows[0];
  }

  /** Rows of this signer in the given states (all when none), newest first. */
  async list(chainId: number, states: ChainTransactionState[], limit: number): Promise<Row[]> {
    return this.#orm.em.fork().execute<Row[]>(
      `select * from chain_transactions where chain_id = ? and signer = ?
         and (cardinality(array(select jsonb_array_elements_text(?::jsonb))) = 0
              or state = any(array(select jsonb_array_elements_text(?::jsonb))))
       order by id desc limit ?`,
      [chainId, this.#address, jsonArray(states), jsonArray(states), limit],
    );
  }

  /** Open rows, and settled ones mined at or after `fromBlock` (or with no block), by nonce. */
  async watched(chainId: number, fromBlock: number): Promise<Row[]> {
    return this.#orm.em.fork().execute<Row[]>(
      `select * from chain_transactions where chain_id = ? and signer = ?
         and (state in ('signed', 'sent', 'mined', 'reorged')
              or (state in ('confirmed', 'reverted') and (block_number >= ? or block_number is null)))
       order by nonce`,
      [chainId, this.#address, fromBlock],
    );
  }

  /**
   * Makes sure the signer's nonces belong to the chain the node serves now. A chain replaced under the same id (a
   * development chain restarted without its state) has another genesis block: the signer's earlier transactions
   * are marked abandoned (broadcasting them there would repeat old writes) and its nonces start from the node's.
   */
  async sameChain(chainId: number): Promise<void> {
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
        [chainId, this.#address, genesis],
      );
      const [signer] = await tx.execute<{ genesis_hash: string | null }[]>(
        'select genesis_hash from chain_signers where chain_id = ? and address = ? for update',
        [chainId, this.#address],
      );
      if (signer!.genesis_hash === genesis) return;
      if (signer!.genesis_hash !== null) {
        const abandoned = await tx.execute<{ id: string }[]>(
          `update chain_transactions set state = 'abandoned', last_error = ?, updated_at = now()
           where chain_id = ? and signer = ? and state not in ('superseded', 'abandoned') returning id`,
          [`chain replaced: genesis ${signer!.genesis_hash} is now ${genesis}`, chainId, this.#address],
        );
        for (const _ of abandoned) this.#emit('abandoned');
      }
      // next_nonce 0: the next send takes the node's pending count.
      await tx.execute(
        `update chain_signers set genesis_hash = ?,
           next_nonce = case when genesis_hash is null then next_nonce else 0 end, updated_at = now()
         where chain_id = ? and address = ?`,
        [genesis, chainId, this.#address],
      );
    });
    this.#genesis = { hash: genesis, at: Date.now() };
  }

  async load(id: string): Promise<Row | undefined> {
    const rows = await this.#orm.em
      .fork()
      .execute<Row[]>('select * from chain_transactions where id = ?', [id]);
    return rows[0];
  }

  /** Follows `superseded_by` to the row that carries the intent now. */
  async current(row: Row): Promise<Row> {
    let current = row;
    for (let hops = 0; current.superseded_by !== null && hops < 16; hops++) {
      const next = await this.load(current.superseded_by);
      if (!next) break;
      current = next;
    }
    return current;
  }

  async note(id: string, error: string): Promise<void> {
    await this.#orm.em
      .fork()
      .execute('update chain_transactions set last_error = ?, updated_at = now() where id = ?', [error, id])
      .catch(() => {});
  }
}
