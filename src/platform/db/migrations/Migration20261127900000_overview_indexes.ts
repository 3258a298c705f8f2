import { Migration } from '@mikro-orm/migrations';

/**
 * The console's overview (GET /v1/console/overview) counts a company's passports by state, its refused registry
 * registrations and its backup pushes not yet accepted: each count is a range of one of these indexes (the
 * passports' an index-only scan), never a walk of the company's rows. Built concurrently, outside a transaction
 * (see Migration20261124900000_volume_indexes).
 */
const INDEXES = [
  `create index concurrently if not exists passports_company_state_idx
     on passports (company_id, environment, status, revoked_at, dpp_status);`,
  `create index concurrently if not exists registry_registrations_refused_idx
     on registry_registrations (company_id, environment) where state = 'refused';`,
  `create index concurrently if not exists backup_pushes_unaccepted_idx
     on backup_pushes (company_id, environment) where status <> 'acknowledged';`,
];

export class Migration20261127900000_overview_indexes extends Migration {
  override isTransactional(): boolean {
    return false;
  }

  override up(): void {
    for (const sql of INDEXES) this.addSql(sql);
  }

  override down(): void {
    this.addSql('drop index concurrently if exists passports_company_state_idx;');
    this.addSql('drop index concurrently if exists registry_registrations_refused_idx;');
    this.addSql('drop index concurrently if exists backup_pushes_unaccepted_idx;');
  }
}
