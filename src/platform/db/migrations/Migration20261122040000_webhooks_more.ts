import { Migration } from '@mikro-orm/migrations';

/**
 * Wakes the outbox dispatcher (LISTEN outbox_events) when an event commits, so deliveries start without
 * waiting for its next poll. Statement-level: one notification per inserting statement; PostgreSQL also
 * folds identical notifications of one transaction into one.
 */
export class Migration20261122040000_webhooks_more extends Migration {
  override up(): void {
    this.addSql(`
      create function outbox_events_notify() returns trigger language plpgsql as $$
      begin
        perform pg_notify('outbox_events', '');
        return null;
      end
      $$;`);
    this.addSql(`
      create trigger outbox_events_notify after insert on outbox_events
      for each statement execute function outbox_events_notify();`);
  }

  override down(): void {
    this.addSql('drop trigger if exists outbox_events_notify on outbox_events;');
    this.addSql('drop function if exists outbox_events_notify();');
  }
}
