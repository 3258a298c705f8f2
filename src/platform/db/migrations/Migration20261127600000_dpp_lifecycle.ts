import { Migration } from '@mikro-orm/migrations';

/**
 * EN 18222 status changes of a passport (issue 34): a suspension or an archive asked for by its company, when,
 * why, and (archived) until when it is kept (docs/en18222.md, "Retention"). Null: the status follows from
 * revocation and recycling as before.
 */
export class Migration20261127600000_dpp_lifecycle extends Migration {
  override up(): void {
    this.addSql(`alter table passports
      add column dpp_status text null check (dpp_status in ('suspended', 'archived')),
      add column dpp_status_reason text null,
      add column dpp_status_changed_at timestamptz null,
      add column retain_until timestamptz null;`);
  }

  override down(): void {
    this.addSql(`alter table passports drop column dpp_status, drop column dpp_status_reason,
      drop column dpp_status_changed_at, drop column retain_until;`);
  }
}
