import { Migration } from '@mikro-orm/migrations';

/**
 * Recovery codes (issue 36, docs/identity.md "Recovery codes"): a set of single-use codes a person gets when
 * they add their first passkey, stored as SHA-256 hashes (each code carries 80 random bits, so a fast hash is
 * enough); a new set replaces the old one.
 */
export class Migration20261127940000_recovery_codes extends Migration {
  override up(): void {
    this.addSql(`create table recovery_codes (
      code_hash bytea primary key,
      user_id integer not null references users(id) on delete cascade,
      created_at timestamptz not null default now(),
      used_at timestamptz null
    );`);
    this.addSql('create index recovery_codes_user on recovery_codes (user_id);');
  }

  override down(): void {
    this.addSql('drop table recovery_codes;');
  }
}
