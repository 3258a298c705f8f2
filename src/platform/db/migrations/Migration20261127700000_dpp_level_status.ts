import { Migration } from '@mikro-orm/migrations';

/**
 * EN 18222 status changes of model and batch passports (issue 34), as items have them: why and when the status
 * last changed and, archived, until when the passport is kept (docs/en18222.md, "Retention").
 */
export class Migration20261127700000_dpp_level_status extends Migration {
  override up(): void {
    this.addSql(`alter table dpp_levels
      add column dpp_status_reason text null,
      add column dpp_status_changed_at timestamptz null,
      add column retain_until timestamptz null;`);
  }

  override down(): void {
    this.addSql(`alter table dpp_levels drop column dpp_status_reason, drop column dpp_status_changed_at,
      drop column retain_until;`);
  }
}
