import { Migration } from '@mikro-orm/migrations';

/**
 * The signed UNTP per-audience variants of passports with product-group data (issue 25, docs/untp.md
 * "Per-audience variants"): one row per passport and audience (`access_role`, UNTP 0.7.0's Anonymous, Customer,
 * Regulator, Recycler, Auditor) holding both secured forms. The first API process to sign a content hash stores
 * its bytes and every other one answers those; a new passport version replaces the row.
 */
export class Migration20261126200100_untp_variant_credentials extends Migration {
  override up(): void {
    this.addSql(`create table untp_variant_credentials (
      passport_id integer not null references passports(id) on delete cascade,
      access_role text not null check (access_role in ('Anonymous', 'Customer', 'Regulator', 'Recycler', 'Auditor')),
      content_hash varchar(64) not null,
      data_integrity text not null,
      jwt text not null,
      signed_at timestamptz not null default now(),
      primary key (passport_id, access_role)
    );`);
  }

  override down(): void {
    this.addSql('drop table if exists untp_variant_credentials;');
  }
}
