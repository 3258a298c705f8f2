import { Migration } from '@mikro-orm/migrations';

/**
 * The signed UNTP credential of each passport (both secured forms: Data Integrity JSON and VC-JOSE compact JWS),
 * shared by every API process: the first process to sign a content hash stores its bytes and every other one
 * answers those, so replicas behind one load balancer never serve two different signatures (different
 * `validFrom`) for the same passport version. One row per passport: a new version replaces the row.
 */
export class Migration20261126500000_untp_credentials extends Migration {
  override up(): void {
    this.addSql(`
      create table untp_credentials (
        passport_id integer primary key references passports(id) on delete cascade,
        content_hash varchar(64) not null,
        data_integrity text not null,
        jwt text not null,
        signed_at timestamptz not null default now()
      );`);
  }

  override down(): void {
    this.addSql('drop table if exists untp_credentials;');
  }
}
