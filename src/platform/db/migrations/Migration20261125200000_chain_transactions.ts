import { Migration } from '@mikro-orm/migrations';

/**
 * The transaction manager's records (src/adapters/chain/transaction-manager.ts, issue 24).
 *
 * `chain_signers` holds the next nonce of each signer on each chain: a sender locks its row (`for update`),
 * takes the nonce and stores its signed intent in the same database transaction, so several worker processes
 * and hosts sending for one key never pick the same nonce. `chain_transactions` is one row per nonce used: what
 * it does (method, calldata, the business operation keys it carries), its fees, the signed transaction and every
 * hash it was broadcast under (fee bumps re-sign it), where it was mined and how far along it is. The partial
 * unique index is the database's own proof that no two live intents share a nonce.
 *
 * `chain_transactions_overview` is the operators' view (`TransactionManager.list()` returns the same rows): state,
 * hashes, fee bumps, drops, reorgs and seconds to confirmation per transaction.
 */
export class Migration20261125200000_chain_transactions extends Migration {
  override up(): void {
    this.addSql(`create table chain_signers (
      chain_id bigint not null,
      address varchar(42) not null,
      next_nonce bigint not null check (next_nonce >= 0),
      updated_at timestamptz not null default now(),
      primary key (chain_id, address)
    );`);
    this.addSql(`create table chain_transactions (
      id bigserial primary key,
      chain_id bigint not null,
      signer varchar(42) not null,
      nonce bigint not null check (nonce >= 0),
      operation_keys text[] not null,
      method text not null,
      to_address varchar(42) not null,
      data text not null,
      value numeric(78, 0) not null default 0,
      gas_limit numeric(78, 0) not null,
      max_fee_per_gas numeric(78, 0) not null,
      max_priority_fee_per_gas numeric(78, 0) not null,
      raw text not null,
      tx_hash varchar(66) not null,
      tx_hashes text[] not null,
      state text not null check (state in ('signed', 'sent', 'mined', 'confirmed', 'reverted', 'reorged', 'superseded')),
      block_number bigint null,
      block_hash varchar(66) null,
      confirmations_required integer not null,
      broadcasts integer not null default 0,
      fee_bumps integer not null default 0,
      drops integer not null default 0,
      reorgs integer not null default 0,
      superseded_by bigint null references chain_transactions(id),
      last_error text null,
      created_at timestamptz not null default now(),
      broadcast_at timestamptz null,
      mined_at timestamptz null,
      confirmed_at timestamptz null,
      updated_at timestamptz not null default now()
    );`);
    this.addSql(`create unique index chain_transactions_nonce_idx on chain_transactions (chain_id, signer, nonce)
      where state <> 'superseded';`);
    this.addSql(`create index chain_transactions_open_idx on chain_transactions (chain_id, signer, nonce)
      where state in ('signed', 'sent', 'mined', 'reorged');`);
    this.addSql(
      'create index chain_transactions_block_idx on chain_transactions (chain_id, signer, block_number);',
    );
    this.addSql('create index chain_transactions_keys_idx on chain_transactions using gin (operation_keys);');
    this.addSql('create index chain_transactions_hashes_idx on chain_transactions using gin (tx_hashes);');
    this.addSql(`create view chain_transactions_overview as
      select id, chain_id, signer, nonce, state, method, operation_keys, tx_hash,
        cardinality(tx_hashes) as hashes, broadcasts, fee_bumps, drops, reorgs, block_number,
        confirmations_required, max_fee_per_gas, max_priority_fee_per_gas, superseded_by, last_error,
        created_at, confirmed_at,
        extract(epoch from confirmed_at - created_at) as seconds_to_confirm
      from chain_transactions;`);
  }

  override down(): void {
    this.addSql('drop view if exists chain_transactions_overview;');
    this.addSql('drop table if exists chain_transactions;');
    this.addSql('drop table if exists chain_signers;');
  }
}
