import { Migration } from '@mikro-orm/migrations';

/**
 * Indexes for the company-wide lists at volume (issue 26): each matches its statement's filter and order, so
 * a page reads about a page of rows however many the company has. `create index concurrently` does not block
 * writes on tables that may hold millions of rows; it cannot run inside a transaction, hence
 * `isTransactional() = false` (migrate() in src/platform/db/orm.ts runs such a migration on its own, outside the
 * all-or-nothing transaction of the others). If it is interrupted, PostgreSQL leaves an INVALID index that
 * `if not exists` would keep: see docs/operations.md, "Index migrations".
 */
export const VOLUME_INDEXES = [
  // The inventory page: the company's chips in id order (keyset `id > cursor`), each with its passport.
  'create index concurrently if not exists chips_company_id_idx on chips (company_id, environment, id);',
  'create index concurrently if not exists passports_chip_idx on passports (chip_id);',
  // The company's events in id order (GET /v1/iaas/events without a token).
  'create index concurrently if not exists supply_chain_events_company_idx on supply_chain_events (company_id, environment, id);',
  // One endpoint's deliveries of one status, newest first.
  'create index concurrently if not exists webhook_deliveries_endpoint_status_idx on webhook_deliveries (endpoint_id, status, created_at, id);',
  // The dead-letter queue in (dead_lettered_at, id) order; its statement filters on status = 'dead'.
  `create index concurrently if not exists webhook_deliveries_dead_queue_idx on webhook_deliveries (company_id, environment, dead_lettered_at, id) where status = 'dead';`,
  // A token's latest resale (status reads).
  'create index concurrently if not exists resales_token_idx on resales (company_id, environment, token_id, created_at);',
  // The active API keys, newest first.
  'create index concurrently if not exists api_keys_active_idx on api_keys (company_id, environment, created_at desc, id) where revoked_at is null;',
];

export class Migration20261124900000_volume_indexes extends Migration {
  override isTransactional(): boolean {
    return false;
  }

  override up(): void {
    for (const sql of VOLUME_INDEXES) this.addSql(sql);
  }

  override down(): void {
    for (const name of [
      'api_keys_active_idx',
      'resales_token_idx',
      'webhook_deliveries_dead_queue_idx',
      'webhook_deliveries_endpoint_status_idx',
      'supply_chain_events_company_idx',
      'passports_chip_idx',
      'chips_company_id_idx',
    ])
      this.addSql(`drop index concurrently if exists ${name};`);
  }
}
