import { Migration } from '@mikro-orm/migrations';

/**
 * Hosts of instances whose passports were imported here (issue 35, docs/exit.md "The old host"): a request
 * addressed to one is redirected to the same path on this instance's PUBLIC_BASE_URL.
 */
export class Migration20261127840000_exit_old_hosts extends Migration {
  override up(): void {
    this.addSql(`create table exit_old_hosts (
      host text primary key,
      company_id uuid null references companies(id) on delete set null,
      recorded_at timestamptz not null default now()
    );`);
  }

  override down(): void {
    this.addSql('drop table exit_old_hosts;');
  }
}
