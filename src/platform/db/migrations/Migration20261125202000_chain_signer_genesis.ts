import { Migration } from '@mikro-orm/migrations';

/**
 * A development chain can be replaced under a kept database (anvil restarted without its state file, same chain
 * id): the signer's nonces start again at 0 and the old transactions are not on it. `chain_signers.genesis_hash`
 * records which chain the nonces belong to; when the chain's genesis block differs, the transaction manager marks
 * the signer's earlier transactions `abandoned` (never broadcast again: replaying them on the new chain would
 * repeat old writes) and takes the nonce from the new chain.
 */
export class Migration20261125202000_chain_signer_genesis extends Migration {
  override up(): void {
    this.addSql('alter table chain_signers add column genesis_hash varchar(66) null;');
    this.addSql(`alter table chain_transactions drop constraint chain_transactions_state_check,
      add constraint chain_transactions_state_check check (state in
        ('signed', 'sent', 'mined', 'confirmed', 'reverted', 'reorged', 'superseded', 'abandoned'));`);
    this.addSql('drop index chain_transactions_nonce_idx;');
    this.addSql(`create unique index chain_transactions_nonce_idx on chain_transactions (chain_id, signer, nonce)
      where state not in ('superseded', 'abandoned');`);
  }

  override down(): void {
    this.addSql(`delete from chain_transactions where state = 'abandoned';`);
    this.addSql('drop index chain_transactions_nonce_idx;');
    this.addSql(`create unique index chain_transactions_nonce_idx on chain_transactions (chain_id, signer, nonce)
      where state <> 'superseded';`);
    this.addSql(`alter table chain_transactions drop constraint chain_transactions_state_check,
      add constraint chain_transactions_state_check check (state in
        ('signed', 'sent', 'mined', 'confirmed', 'reverted', 'reorged', 'superseded'));`);
    this.addSql('alter table chain_signers drop column genesis_hash;');
  }
}
