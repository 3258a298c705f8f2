import { Migration } from '@mikro-orm/migrations';

/**
 * When an outbox event was recorded, beside when it occurred (a chain event occurs at its block's timestamp,
 * whole seconds, often before we record it): an endpoint receives the events recorded after it was created,
 * so one created a moment before a sale is recorded hears of the sale.
 */
export class Migration20261124650000_outbox_recorded_at extends Migration {
  override up(): void {
    this.addSql('alter table outbox_events add column recorded_at timestamptz not null default now();');
  }

  override down(): void {
    this.addSql('alter table outbox_events drop column if exists recorded_at;');
  }
}
