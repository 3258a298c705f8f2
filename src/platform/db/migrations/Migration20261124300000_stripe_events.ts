import { Migration } from '@mikro-orm/migrations';

/** Stripe's signed events, one row per event id: the exactly-once record of inbound webhooks. */
export class Migration20261124300000_stripe_events extends Migration {
  override up(): void {
    this.addSql(`create table stripe_events (
      id text primary key,
      environment text not null check (environment in ('live', 'test')),
      type text not null,
      created_at timestamptz not null,
      received_at timestamptz not null default now()
    );`);
  }

  override down(): void {
    this.addSql('drop table if exists stripe_events;');
  }
}
