import type { Orm } from '../../platform/db/orm.ts';
import type { ReorgChange } from './transaction-manager.ts';

/**
 * The transaction manager's `reconcile` for this service's records: after a reorg, a write that was sent again
 * is mined in another block (and, after a fee bump, under another hash). Passports (mint), supply-chain events
 * (anchors and recycles), model and batch versions (anchors) and resales (claims) that named any hash of that
 * transaction are pointed at the canonical one, so the database never names a transaction the canonical chain
 * does not hold.
 */
export function reorgRecordReconciler(orm: Orm): (change: ReorgChange) => Promise<void> {
  return async (change) => {
    const hashes = JSON.stringify(change.fromHashes.filter((hash) => hash !== change.txHash));
    const all = JSON.stringify([...change.fromHashes, change.txHash]);
    const list = 'array(select jsonb_array_elements_text(?::jsonb))';
    await orm.em.fork().transactional(async (tx) => {
      await tx.execute(
        `update passports set transaction_hash = ?, mint_block = ?, updated_at = now()
         where transaction_hash = any(${list}) and (transaction_hash <> ? or mint_block <> ?)`,
        [change.txHash, change.blockNumber, all, change.txHash, change.blockNumber],
      );
      await tx.execute(
        `update supply_chain_events set transaction_hash = ?, block_number = ?, updated_at = now()
         where transaction_hash = any(${list}) and (transaction_hash <> ? or block_number <> ?)`,
        [change.txHash, change.blockNumber, all, change.txHash, change.blockNumber],
      );
      await tx.execute(
        `update dpp_level_versions set transaction_hash = ?, block_number = ?
         where transaction_hash = any(${list}) and (transaction_hash <> ? or block_number <> ?)`,
        [change.txHash, change.blockNumber, all, change.txHash, change.blockNumber],
      );
      for (const column of ['authorize_tx_hash', 'buyer_authorize_tx_hash', 'claim_tx_hash']) {
        await tx.execute(`update resales set ${column} = ? where ${column} = any(${list})`, [
          change.txHash,
          hashes,
        ]);
      }
    });
  };
}
