import { Migration } from '@mikro-orm/migrations';

/**
 * Who may read restricted passport data (issue 25, docs/disclosure.md). `disclosure_grants`: a brand (company
 * + environment) grants another company a role (repairer, recycler, notifiedBody) for all its passports of
 * that environment; revoking sets `revoked_at` (kept for the record). `disclosure_authorities`: the platform's
 * register of authorities (market surveillance, the Commission), holding the `authority` role for every
 * brand's passports, kept by the operator (npm run cli -- authority:grant).
 */
export class Migration20261126100000_disclosure_grants extends Migration {
  override up(): void {
    this.addSql(`create table disclosure_grants (
      id uuid primary key default gen_random_uuid(),
      company_id uuid not null references companies(id) on delete cascade,
      environment text not null check (environment in ('live', 'test')),
      grantee_company_id uuid not null references companies(id) on delete cascade,
      role text not null check (role in ('repairer', 'recycler', 'notifiedBody')),
      created_at timestamptz not null default now(),
      revoked_at timestamptz
    );`);
    this.addSql(`create unique index disclosure_grants_active on disclosure_grants
      (company_id, environment, grantee_company_id, role) where revoked_at is null;`);
    this.addSql(`create table disclosure_authorities (
      company_id uuid primary key references companies(id) on delete cascade,
      note text not null default '',
      registered_at timestamptz not null default now()
    );`);
  }

  override down(): void {
    this.addSql('drop table if exists disclosure_authorities;');
    this.addSql('drop table if exists disclosure_grants;');
  }
}
