import { Migration } from '@mikro-orm/migrations';

/**
 * A company's product settings per environment (a test key never changes live behaviour): the declaration of
 * conformity a mint without its own `conformity_url` falls back to (mint shape B, toolbox bind), and the
 * warranty a sale starts, in months. No row means the defaults: no fallback link, 24 months.
 */
export class Migration20261124810000_company_settings extends Migration {
  override up(): void {
    this.addSql(`create table company_settings (
      company_id uuid not null references companies(id) on delete cascade,
      environment text not null check (environment in ('live', 'test')),
      default_conformity_url text null,
      warranty_months integer not null default 24 check (warranty_months between 1 and 120),
      updated_at timestamptz not null default now(),
      primary key (company_id, environment)
    );`);
  }

  override down(): void {
    this.addSql('drop table if exists company_settings;');
  }
}
