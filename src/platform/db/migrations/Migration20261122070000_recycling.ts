import { Migration } from '@mikro-orm/migrations';

/** A token is recycled (its deposit released) once: at most one RECYCLE_TRANSFER event per token. */
export class Migration20261122070000_recycling extends Migration {
  override up(): void {
    this.addSql(`
      create unique index supply_chain_events_one_recycle_idx
        on supply_chain_events (environment, contract_address, token_id)
        where action = 'RECYCLE_TRANSFER';`);
  }

  override down(): void {
    this.addSql('drop index if exists supply_chain_events_one_recycle_idx;');
  }
}
