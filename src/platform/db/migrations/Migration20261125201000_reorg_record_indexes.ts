import { Migration } from '@mikro-orm/migrations';

/**
 * After a reorg, the transaction manager's reconciler (src/adapters/chain/reorg-records.ts) finds the passports and
 * supply-chain events that name a reorged transaction by its hash, and does so again every 10 s while the
 * transaction is within the reorg window: without these, each time a sequential scan of tables that hold
 * millions of rows at volume. Partial (only recorded hashes), built concurrently outside a transaction like
 * Migration20261124900000_volume_indexes.
 */
export class Migration20261125201000_reorg_record_indexes extends Migration {
  override isTransactional(): boolean {
    return false;
  }

  override up(): void {
    this.addSql(
      'create index concurrently if not exists passports_transaction_hash_idx on passports (transaction_hash);',
    );
    this.addSql(
      'create index concurrently if not exists supply_chain_events_transaction_hash_idx on supply_chain_events (transaction_hash) where transaction_hash is not null;',
    );
  }

  override down(): void {
    this.addSql('drop index concurrently if exists supply_chain_events_transaction_hash_idx;');
    this.addSql('drop index concurrently if exists passports_transaction_hash_idx;');
  }
}
