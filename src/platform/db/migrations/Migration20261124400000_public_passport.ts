import { Migration } from '@mikro-orm/migrations';

/**
 * The public passport: revocation and a BitstringStatusList entry per passport, the signed credential of each
 * passport version (signed once, served many times), the status lists' signed credentials, and the issuer's
 * Ed25519 keys per environment (public keys kept after rotation, so earlier credentials stay verifiable).
 */
export class Migration20261124400000_public_passport extends Migration {
  override up(): void {
    this.addSql(`
      alter table passports
        add column status_list integer null,
        add column status_list_index integer null,
        add column revoked_at timestamptz null,
        add column revocation_reason varchar(500) null;`);
    this.addSql(`
      update passports set revoked_at = updated_at, revocation_reason = 'recycled'
      where status = 'RECYCLED' and revoked_at is null;`);
    // The resolver finds a passport by environment and token id (the serial of its Digital Link).
    this.addSql('create index passports_token_idx on passports (environment, token_id);');
    this.addSql(`
      create unique index passports_status_entry_idx on passports (environment, status_list, status_list_index)
        where status_list_index is not null;`);
    this.addSql(`
      create index passports_revoked_idx on passports (environment, status_list)
        where revoked_at is not null;`);
    this.addSql(`
      create table passport_credentials (
        passport_id integer primary key references passports(id) on delete cascade,
        content_hash varchar(64) not null,
        credential text not null,
        signed_at timestamptz not null default now()
      );`);
    this.addSql(`
      create table status_list_credentials (
        environment text not null check (environment in ('live', 'test')),
        list integer not null,
        content_hash varchar(64) not null,
        credential text not null,
        signed_at timestamptz not null default now(),
        primary key (environment, list)
      );`);
    this.addSql(`
      create table issuer_keys (
        id serial primary key,
        environment text not null check (environment in ('live', 'test')),
        public_key_multibase varchar(64) not null unique,
        sealed_private_key bytea null,
        source text not null check (source in ('configured', 'generated')),
        created_at timestamptz not null default now(),
        retired_at timestamptz null
      );`);
    this.addSql(
      'create unique index issuer_keys_one_active_idx on issuer_keys (environment) where retired_at is null;',
    );
  }

  override down(): void {
    this.addSql('drop table if exists issuer_keys;');
    this.addSql('drop table if exists status_list_credentials;');
    this.addSql('drop table if exists passport_credentials;');
    this.addSql('drop index if exists passports_revoked_idx;');
    this.addSql('drop index if exists passports_status_entry_idx;');
    this.addSql('drop index if exists passports_token_idx;');
    this.addSql(`
      alter table passports
        drop column if exists status_list,
        drop column if exists status_list_index,
        drop column if exists revoked_at,
        drop column if exists revocation_reason;`);
  }
}
