import { Migration } from '@mikro-orm/migrations';

/**
 * The billing meter counts the passports of a period's partial first and last hour (the whole hours come from
 * usage_counts): a range of this index. Built concurrently, outside a transaction (see
 * Migration20261124900000_volume_indexes).
 */
export class Migration20261124920000_passports_created_idx extends Migration {
  override isTransactional(): boolean {
    return false;
  }

  override up(): void {
    this.addSql(
      'create index concurrently if not exists passports_company_created_idx on passports (company_id, environment, created_at);',
    );
  }

  override down(): void {
    this.addSql('drop index concurrently if exists passports_company_created_idx;');
  }
}
