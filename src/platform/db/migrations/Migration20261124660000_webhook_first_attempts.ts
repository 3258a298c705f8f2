import { Migration } from '@mikro-orm/migrations';

/**
 * The dispatcher makes each delivery's first attempt itself: it claims the attempt (an in-flight row,
 * committed with the event's dispatch) before sending, so a crash before the outcome is recorded leaves a
 * marker that the recovery sweep hands to a retry workflow — never a second POST for the same attempt.
 */
export class Migration20261124660000_webhook_first_attempts extends Migration {
  override up(): void {
    this.addSql('alter table webhook_attempts add column in_flight boolean not null default false;');
    this.addSql('create index webhook_attempts_in_flight on webhook_attempts (started_at) where in_flight;');
  }

  override down(): void {
    this.addSql('drop index if exists webhook_attempts_in_flight;');
    this.addSql('alter table webhook_attempts drop column if exists in_flight;');
  }
}
