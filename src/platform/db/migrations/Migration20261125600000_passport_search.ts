import { Migration } from '@mikro-orm/migrations';

/**
 * The console's passport search (GET /v1/dpp/passports, src/passport/record/search-passports.ts): each filter reads a
 * range of its own index in the list's order (newest first by id), so a page costs the same at any size. Chip
 * UID and token id already have unique / lookup indexes; the unfiltered list uses passports_company_idx. Built
 * concurrently, outside a transaction (see Migration20261124900000_volume_indexes).
 */
const INDEXES = [
  'create index concurrently if not exists passports_company_gtin_idx on passports (company_id, environment, gtin, id);',
  `create index concurrently if not exists passports_company_batch_idx
     on passports (company_id, environment, ((metadata_cache->'custom_dpp_data'->>'batch_number')), id);`,
  'create index concurrently if not exists passports_company_status_idx on passports (company_id, environment, status, id);',
  `create index concurrently if not exists passports_company_revoked_idx
     on passports (company_id, environment, id) where revoked_at is not null;`,
];

export class Migration20261125600000_passport_search extends Migration {
  override isTransactional(): boolean {
    return false;
  }

  override up(): void {
    for (const sql of INDEXES) this.addSql(sql);
  }

  override down(): void {
    for (const name of [
      'passports_company_gtin_idx',
      'passports_company_batch_idx',
      'passports_company_status_idx',
      'passports_company_revoked_idx',
    ]) {
      this.addSql(`drop index concurrently if exists ${name};`);
    }
  }
}
