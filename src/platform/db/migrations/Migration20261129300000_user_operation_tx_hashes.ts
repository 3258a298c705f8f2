import { Migration } from '@mikro-orm/migrations';

/**
 * Every bundle transaction a user operation was ever included in (issue 40): after a reorg the operation runs
 * again in another transaction, and the records that named the old one (a resale's claim_tx_hash) are pointed at
 * the new one, as chain_transactions.tx_hashes allows for the platform's own transactions.
 */
export class Migration20261129300000_user_operation_tx_hashes extends Migration {
  override up(): void {
    this.addSql(`alter table user_operations add column tx_hashes text[] not null default '{}';`);
    this.addSql(`update user_operations set tx_hashes = array[tx_hash] where tx_hash is not null;`);
    this.addSql(
      `create index user_operations_final on user_operations (chain_id, block_number) where state in ('included', 'reverted');`,
    );
    // Whether a person's smart account exists yet (the console's passport page).
    this.addSql('create index user_operations_sender on user_operations (sender);');
  }

  override down(): void {
    this.addSql('drop index user_operations_sender;');
    this.addSql('drop index user_operations_final;');
    this.addSql('alter table user_operations drop column tx_hashes;');
  }
}
