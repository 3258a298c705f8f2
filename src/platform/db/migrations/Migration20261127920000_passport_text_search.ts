import { Migration } from '@mikro-orm/migrations';

/**
 * Free-text passport search (GET /v1/dpp/passports?q=…, src/passport/record/search-passports.ts): a trigram GIN
 * index over one lower-cased text of the product name, GTIN, batch, chip UID and token id, so a fragment of any
 * of them (`%fragment%`, at least three characters) reads the index instead of the company's passports. pg_trgm
 * is a trusted extension (PostgreSQL 13+): a database owner may create it without superuser. The expression must
 * stay the same as PASSPORT_SEARCH_TEXT, or the planner no longer matches it to the index.
 */
export class Migration20261127920000_passport_text_search extends Migration {
  override isTransactional(): boolean {
    return false;
  }

  override up(): void {
    this.addSql('create extension if not exists pg_trgm;');
    this.addSql(
      `create index concurrently if not exists passports_search_text_trgm on passports using gin ((lower(
         coalesce(metadata_cache->>'name', '') || ' ' || coalesce(gtin, '') || ' ' ||
         coalesce(metadata_cache->'custom_dpp_data'->>'batch_number', '') || ' ' || chip_uid || ' ' || token_id
       )) gin_trgm_ops);`,
    );
  }

  override down(): void {
    this.addSql('drop index concurrently if exists passports_search_text_trgm;');
  }
}
