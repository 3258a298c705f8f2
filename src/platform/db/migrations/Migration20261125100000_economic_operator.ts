import { Migration } from '@mikro-orm/migrations';

/**
 * The EN 18223 passport header's economic operator and facility, per company and environment: the company's
 * GLN or EORI (`economic_operator_id`) and, optionally, the producing facility's identifier (`facility_id`).
 * Null until the company sets them (the header then shows null).
 */
export class Migration20261125100000_economic_operator extends Migration {
  override up(): void {
    this.addSql(`alter table company_settings
      add column economic_operator_id text null check (length(economic_operator_id) between 1 and 32),
      add column facility_id text null check (length(facility_id) between 1 and 200);`);
  }

  override down(): void {
    this.addSql(
      'alter table company_settings drop column if exists economic_operator_id, drop column if exists facility_id;',
    );
  }
}
