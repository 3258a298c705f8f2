import { Migration } from '@mikro-orm/migrations';

/**
 * What e-mail/password login needs on top of the foundation's users: a confirmed address, failed attempts and
 * a lockout, and single-use, expiring e-mail tokens (stored as SHA-256 hashes, never in clear).
 */
export class Migration20261124700000_user_login extends Migration {
  override up(): void {
    this.addSql(`alter table users
      add column email_confirmed_at timestamptz null,
      add column failed_logins integer not null default 0,
      add column locked_until timestamptz null;`);
    this.addSql(`create table user_email_tokens (
      token_hash bytea primary key,
      user_id integer not null references users(id) on delete cascade,
      purpose text not null check (purpose in ('confirm_email')),
      expires_at timestamptz not null,
      used_at timestamptz null,
      created_at timestamptz not null default now()
    );`);
    this.addSql('create index user_email_tokens_user on user_email_tokens (user_id);');
  }

  override down(): void {
    this.addSql('drop table if exists user_email_tokens;');
    this.addSql(
      'alter table users drop column if exists email_confirmed_at, drop column if exists failed_logins, drop column if exists locked_until;',
    );
  }
}
