import { Migration } from '@mikro-orm/migrations';

/**
 * One row per release (POST /v1/dpp/release). The resale workflow drives it; the row is what the one-open-
 * resale-per-token rule, status reads and the payment webhook's checks use.
 */
export class Migration20261124500000_resales extends Migration {
  override up(): void {
    this.addSql(`create table resales (
      id uuid primary key,
      company_id uuid not null references companies(id),
      environment text not null check (environment in ('live', 'test')),
      token_id text not null,
      seller_kind text not null check (seller_kind in ('company', 'user')),
      seller_ref text not null,
      seller_wallet text not null,
      buyer_email text not null,
      buyer_wallet text not null,
      amount bigint not null check (amount > 0),
      currency text not null,
      status text not null,
      checkout_session_id text,
      payment_intent_id text,
      authorize_tx_hash text,
      buyer_authorize_tx_hash text,
      claim_tx_hash text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );`);
    this.addSql(`create unique index resales_one_open_per_token on resales (environment, token_id)
      where status in ('AUTHORIZING', 'AWAITING_PAYMENT', 'AWAITING_CLAIM');`);
    this.addSql('create index resales_company on resales (company_id, environment, created_at);');
  }

  override down(): void {
    this.addSql('drop table if exists resales;');
  }
}
