import type { Orm } from '../../platform/db/orm.ts';
import type { ChainTransactionState } from './transaction-manager.ts';

/** One line of `chain_transactions_overview`, for operators (every chain and signer). */
export interface ChainTransactionReport {
  id: string;
  chainId: number;
  signer: string;
  nonce: number;
  state: ChainTransactionState;
  method: string;
  operations: number;
  txHash: string;
  hashes: number;
  broadcasts: number;
  feeBumps: number;
  drops: number;
  reorgs: number;
  blockNumber: number | null;
  supersededBy: string | null;
  secondsToConfirm: number | null;
  lastError: string | null;
  createdAt: Date;
}

/** States a transaction leaves on its own only by being mined (what an operator watches). */
export const OPEN_STATES: ChainTransactionState[] = ['signed', 'sent', 'mined', 'reorged'];

/** The newest transactions (optionally only some states), newest first; at most 1000. */
export async function listChainTransactions(
  orm: Orm,
  options: { states?: ChainTransactionState[]; limit?: number } = {},
): Promise<ChainTransactionReport[]> {
  const states = options.states ?? [];
  const rows = await orm.em.fork().execute<Record<string, unknown>[]>(
    `select * from chain_transactions_overview
     where cardinality(array(select jsonb_array_elements_text(?::jsonb))) = 0
        or state = any(array(select jsonb_array_elements_text(?::jsonb)))
     order by id desc limit ?`,
    [JSON.stringify(states), JSON.stringify(states), Math.min(Math.max(options.limit ?? 50, 1), 1000)],
  );
  return rows.map((row) => ({
    id: String(row.id),
    chainId: Number(row.chain_id),
    signer: String(row.signer),
    nonce: Number(row.nonce),
    state: row.state as ChainTransactionState,
    method: String(row.method),
    operations: (row.operation_keys as string[]).length,
    txHash: String(row.tx_hash),
    hashes: Number(row.hashes),
    broadcasts: Number(row.broadcasts),
    feeBumps: Number(row.fee_bumps),
    drops: Number(row.drops),
    reorgs: Number(row.reorgs),
    blockNumber: row.block_number === null ? null : Number(row.block_number),
    supersededBy: row.superseded_by === null ? null : String(row.superseded_by),
    secondsToConfirm: row.seconds_to_confirm === null ? null : Number(row.seconds_to_confirm),
    lastError: (row.last_error as string | null) ?? null,
    createdAt: new Date(row.created_at as string),
  }));
}

/** A fixed-width table of the reports, one transaction a line, for the operator CLI. */
export function formatChainTransactions(reports: ChainTransactionReport[]): string[] {
  const header =
    'id      chain    signer      nonce  state       method             ops  block     bumps drops reorgs confirm_s  tx_hash';
  const lines = reports.map((r) =>
    [
      r.id.padEnd(7),
      String(r.chainId).padEnd(8),
      `${r.signer.slice(0, 10)}…`.padEnd(11),
      String(r.nonce).padEnd(6),
      r.state.padEnd(11),
      r.method.padEnd(18),
      String(r.operations).padEnd(4),
      String(r.blockNumber ?? '-').padEnd(9),
      String(r.feeBumps).padEnd(5),
      String(r.drops).padEnd(5),
      String(r.reorgs).padEnd(6),
      (r.secondsToConfirm === null ? '-' : r.secondsToConfirm.toFixed(1)).padEnd(10),
      r.txHash + (r.supersededBy ? ` → #${r.supersededBy}` : '') + (r.lastError ? `  (${r.lastError})` : ''),
    ].join(' '),
  );
  return [header, ...lines];
}
