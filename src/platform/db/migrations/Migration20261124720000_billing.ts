import { Migration } from '@mikro-orm/migrations';

/**
 * Billing per company and environment: the Stripe customer, and the subscription as the signed
 * customer.subscription.* webhooks describe it; and which mints were reported to Stripe's usage meter.
 */
export class Migration20261124720000_billing extends Migration {
  override up(): void {
    this.addSql(`create table billing_accounts (
      company_id uuid not null references companies(id) on delete cascade,
      environment text not null check (environment in ('live', 'test')),
      stripe_customer_id text not null unique,
      subscription_id text null,
      plan text null check (plan in ('essential', 'pro')),
      status text null,
      current_period_start timestamptz null,
      current_period_end timestamptz null,
      subscription_updated_at timestamptz null,
      created_at timestamptz not null default now(),
      primary key (company_id, environment)
    );`);
    this.addSql(`create table usage_reports (
      passport_id integer primary key references passports(id) on delete cascade,
      meter_event_identifier text not null unique,
      reported_at timestamptz not null default now()
    );`);
  }

  override down(): void {
    this.addSql('drop table if exists usage_reports;');
    this.addSql('drop table if exists billing_accounts;');
  }
}
