import { Migration } from '@mikro-orm/migrations';

/**
 * ERC-4337 user operations the service sponsors (issue 40, docs/smart-accounts.md): one row per business
 * operation (idempotency_key, e.g. one claim), written before the operation reaches the bundler and followed to
 * its end like chain_transactions: signed → sent → included | reverted, or dropped / reorged and sent again. The
 * operation's nonce key derives from idempotency_key, so whatever is resent, the chain includes it at most once.
 * company_id and owner feed the sponsorship budgets.
 */
export class Migration20261128700000_user_operations extends Migration {
  override up(): void {
    this.addSql(`create table user_operations (
      id bigserial primary key,
      chain_id bigint not null,
      idempotency_key text not null,
      purpose text not null,
      company_id text null,
      owner varchar(42) not null,
      entry_point varchar(42) not null,
      sender varchar(42) not null,
      nonce numeric(78, 0) not null,
      operation jsonb not null,
      user_op_hash varchar(66) not null,
      user_op_hashes text[] not null,
      state text not null check (state in ('signed', 'sent', 'included', 'reverted', 'dropped', 'reorged')),
      tx_hash varchar(66) null,
      block_number bigint null,
      block_hash varchar(66) null,
      actual_gas_cost numeric(78, 0) null,
      sends integer not null default 0,
      drops integer not null default 0,
      reorgs integer not null default 0,
      last_error text null,
      created_at timestamptz not null default now(),
      sent_at timestamptz null,
      included_at timestamptz null,
      updated_at timestamptz not null default now(),
      unique (chain_id, idempotency_key)
    );`);
    this.addSql('create index user_operations_company on user_operations (company_id, created_at);');
    this.addSql('create index user_operations_owner on user_operations (owner, created_at);');
    this.addSql(
      `create index user_operations_open on user_operations (state) where state in ('signed', 'sent', 'dropped', 'reorged');`,
    );
  }

  override down(): void {
    this.addSql('drop table user_operations;');
  }
}
