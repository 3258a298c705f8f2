import type { Orm } from '../../platform/db/orm.ts';
import type { UserOperation } from './user-operation.ts';

export type UserOperationState = 'signed' | 'sent' | 'included' | 'reverted' | 'dropped' | 'reorged';

export interface UserOperationRecord {
  id: string;
  idempotencyKey: string;
  purpose: string;
  companyId: string | null;
  owner: string;
  sender: string;
  nonce: bigint;
  operation: UserOperation;
  userOpHash: string;
  state: UserOperationState;
  txHash: string | null;
  /** Every transaction it was included in, the reorged ones too. */
  txHashes: string[];
  blockNumber: number | null;
  blockHash: string | null;
  actualGasCost: bigint | null;
  sends: number;
}

interface Row {
  id: string;
  idempotency_key: string;
  purpose: string;
  company_id: string | null;
  owner: string;
  sender: string;
  nonce: string;
  operation: Record<string, string>;
  user_op_hash: string;
  state: UserOperationState;
  tx_hash: string | null;
  tx_hashes: string[];
  block_number: string | null;
  block_hash: string | null;
  actual_gas_cost: string | null;
  sends: number;
}

const BIGINT_FIELDS = [
  'nonce',
  'callGasLimit',
  'verificationGasLimit',
  'preVerificationGas',
  'maxFeePerGas',
  'maxPriorityFeePerGas',
  'paymasterVerificationGasLimit',
  'paymasterPostOpGasLimit',
] as const;

function serialise(op: UserOperation): Record<string, string> {
  return Object.fromEntries(Object.entries(op).map(([key, value]) => [key, String(value)]));
}

function deserialise(json: Record<string, string>): UserOperation {
  const op: Record<string, unknown> = { ...json };
  for (const field of BIGINT_FIELDS) if (json[field] !== undefined) op[field] = BigInt(json[field]);
  return op as unknown as UserOperation;
}

function toRecord(row: Row): UserOperationRecord {
  return {
    id: row.id,
    idempotencyKey: row.idempotency_key,
    purpose: row.purpose,
    companyId: row.company_id,
    owner: row.owner,
    sender: row.sender,
    nonce: BigInt(row.nonce),
    operation: deserialise(row.operation),
    userOpHash: row.user_op_hash,
    state: row.state,
    txHash: row.tx_hash,
    txHashes: row.tx_hashes,
    blockNumber: row.block_number === null ? null : Number(row.block_number),
    blockHash: row.block_hash,
    actualGasCost: row.actual_gas_cost === null ? null : BigInt(row.actual_gas_cost),
    sends: row.sends,
  };
}

/** The user_operations table: every sponsored operation, written before the bundler sees it. */
export class UserOperationStore {
  readonly #orm: Orm;
  readonly #chainId: bigint;

  constructor(orm: Orm, chainId: bigint) {
    this.#orm = orm;
    this.#chainId = chainId;
  }

  async find(idempotencyKey: string): Promise<UserOperationRecord | undefined> {
    const [row] = await this.#orm.em
      .fork()
      .execute<Row[]>('select * from user_operations where chain_id = ? and idempotency_key = ?', [
        this.#chainId.toString(),
        idempotencyKey,
      ]);
    return row ? toRecord(row) : undefined;
  }

  /** Records a signed operation; undefined when another process recorded this business operation first. */
  async insert(entry: {
    idempotencyKey: string;
    purpose: string;
    companyId: string | null;
    owner: string;
    entryPoint: string;
    operation: UserOperation;
    userOpHash: string;
  }): Promise<UserOperationRecord | undefined> {
    const [row] = await this.#orm.em.fork().execute<Row[]>(
      `insert into user_operations (chain_id, idempotency_key, purpose, company_id, owner, entry_point, sender, nonce,
         operation, user_op_hash, user_op_hashes, state)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, array[?]::text[], 'signed')
       on conflict (chain_id, idempotency_key) do nothing returning *`,
      [
        this.#chainId.toString(),
        entry.idempotencyKey,
        entry.purpose,
        entry.companyId,
        entry.owner,
        entry.entryPoint,
        entry.operation.sender,
        entry.operation.nonce.toString(),
        JSON.stringify(serialise(entry.operation)),
        entry.userOpHash,
        entry.userOpHash,
      ],
    );
    return row ? toRecord(row) : undefined;
  }

  /** A re-signed operation (same nonce) replaces a dropped or expired one. */
  async replace(id: string, operation: UserOperation, userOpHash: string): Promise<void> {
    await this.#orm.em.fork().execute(
      `update user_operations set operation = ?, user_op_hash = ?, user_op_hashes = user_op_hashes || ?::text,
         state = 'signed', updated_at = now() where id = ? and state in ('signed', 'sent', 'dropped', 'reorged')`,
      [JSON.stringify(serialise(operation)), userOpHash, userOpHash, id],
    );
  }

  async markSent(id: string): Promise<void> {
    await this.#orm.em.fork().execute(
      `update user_operations set state = 'sent', sends = sends + 1, sent_at = coalesce(sent_at, now()),
         last_error = null, updated_at = now() where id = ? and state in ('signed', 'sent', 'dropped', 'reorged')`,
      [id],
    );
  }

  async markFinal(
    id: string,
    outcome: {
      state: 'included' | 'reverted';
      txHash: string;
      blockNumber: number;
      blockHash: string;
      actualGasCost: bigint;
    },
  ): Promise<void> {
    await this.#orm.em.fork().execute(
      `update user_operations set state = ?, tx_hash = ?, block_number = ?, block_hash = ?, actual_gas_cost = ?,
         tx_hashes = case when ?::text = any(tx_hashes) then tx_hashes else tx_hashes || ?::text end,
         included_at = now(), updated_at = now() where id = ?`,
      [
        outcome.state,
        outcome.txHash,
        outcome.blockNumber,
        outcome.blockHash,
        outcome.actualGasCost.toString(),
        outcome.txHash,
        outcome.txHash,
        id,
      ],
    );
  }

  /**
   * dropped: the bundler no longer knows it and the chain never included it; reorged: its block left the chain.
   * Only from the state the caller saw (for reorged, in that block): a caller working on an older read
   * (a retried claim's earlier attempt) never takes back what another one recorded since.
   */
  async markLost(
    record: Pick<UserOperationRecord, 'id' | 'state' | 'blockHash'>,
    state: 'dropped' | 'reorged',
    error: string,
  ): Promise<boolean> {
    const counter = state === 'dropped' ? 'drops' : 'reorgs';
    const changed = await this.#orm.em.fork().execute<{ id: string }[]>(
      `update user_operations set state = ?, ${counter} = ${counter} + 1, last_error = ?, tx_hash = null,
         block_number = null, block_hash = null, updated_at = now()
       where id = ? and state = ? and block_hash is not distinct from ? returning id`,
      [state, error, record.id, record.state, record.blockHash],
    );
    return changed.length > 0;
  }

  /**
   * What the monitor watches: operations included or reverted at or after `fromBlock` (a reorg may still take
   * them back) and open ones a reorg took back (no caller waits on them any more; they are followed until included
   * again).
   */
  async watched(fromBlock: number): Promise<UserOperationRecord[]> {
    const rows = await this.#orm.em.fork().execute<Row[]>(
      `select * from user_operations where chain_id = ?
         and ((state in ('included', 'reverted') and block_number >= ?)
           or (state in ('signed', 'sent', 'dropped', 'reorged') and reorgs > 0))
       order by id`,
      [this.#chainId.toString(), fromBlock],
    );
    return rows.map(toRecord);
  }

  async markError(id: string, error: string): Promise<void> {
    await this.#orm.em
      .fork()
      .execute('update user_operations set last_error = ?, updated_at = now() where id = ?', [error, id]);
  }

  /** Sponsored operations since `since` of a company and of an owner (the budgets count these). */
  async countSince(
    since: Date,
    who: { companyId: string | null; owner: string },
  ): Promise<{ company: number; owner: number }> {
    const [row] = await this.#orm.em.fork().execute<{ company: string; owner: string }[]>(
      `select count(*) filter (where company_id = ?) as company, count(*) filter (where owner = ?) as owner
         from user_operations where chain_id = ? and created_at >= ? and state <> 'dropped'`,
      [who.companyId, who.owner, this.#chainId.toString(), since],
    );
    return { company: Number(row?.company ?? 0), owner: Number(row?.owner ?? 0) };
  }
}
