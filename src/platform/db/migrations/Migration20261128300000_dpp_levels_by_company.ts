import { Migration } from '@mikro-orm/migrations';

/**
 * The console lists a company's model and batch passports newest first, optionally of one granularity
 * (GET /v1/dpp/levels, issue 36): an index per company and environment in id order, so a page reads only its rows.
 */
export class Migration20261128300000_dpp_levels_by_company extends Migration {
  override up(): void {
    this.addSql(
      'create index dpp_levels_company_idx on dpp_levels (company_id, environment, granularity, id desc);',
    );
    this.addSql('create index dpp_levels_company_id_idx on dpp_levels (company_id, environment, id desc);');
  }

  override down(): void {
    this.addSql('drop index if exists dpp_levels_company_idx;');
    this.addSql('drop index if exists dpp_levels_company_id_idx;');
  }
}
