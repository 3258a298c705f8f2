import { Migration } from '@mikro-orm/migrations';

/**
 * Stripe Connect accounts of sellers: a company's (KYB) or an individual user's (KYC), per environment, with
 * their verification as Stripe's account.updated webhooks describe it. No personal data is stored here: it
 * goes to Stripe and stays there.
 */
export class Migration20261124730000_connect_accounts extends Migration {
  override up(): void {
    this.addSql(`create table connect_accounts (
      owner_kind text not null check (owner_kind in ('company', 'user')),
      owner_id text not null,
      environment text not null check (environment in ('live', 'test')),
      account_id text not null unique,
      status text not null,
      verified boolean not null default false,
      requirements jsonb not null default '[]',
      updated_from_event_at timestamptz null,
      created_at timestamptz not null default now(),
      primary key (owner_kind, owner_id, environment)
    );`);
  }

  override down(): void {
    this.addSql('drop table if exists connect_accounts;');
  }
}
