import { Migration } from '@mikro-orm/migrations';

/**
 * Failed logins slow guessing down instead of locking the account (issue 33): a throttle per key (an address
 * tried, a client address, a known device; keys are SHA-256 hashes, never the address itself) and the known
 * devices, clients that logged in before (OWASP's device cookie; tokens stored as hashes only). The per-user
 * lockout columns go.
 */
export class Migration20261127200000_login_throttle extends Migration {
  override up(): void {
    this.addSql(`create table login_throttle (
      key text primary key,
      failures integer not null,
      last_failure_at timestamptz not null,
      blocked_until timestamptz null
    );`);
    this.addSql('create index login_throttle_last_failure on login_throttle (last_failure_at);');
    this.addSql(`create table known_devices (
      token_hash text primary key,
      user_id integer not null references users(id) on delete cascade,
      created_at timestamptz not null default now(),
      last_used_at timestamptz not null default now()
    );`);
    this.addSql('create index known_devices_user on known_devices (user_id);');
    this.addSql('alter table users drop column failed_logins, drop column locked_until;');
  }

  override down(): void {
    this.addSql(`alter table users
      add column failed_logins integer not null default 0,
      add column locked_until timestamptz null;`);
    this.addSql('drop table if exists known_devices;');
    this.addSql('drop table if exists login_throttle;');
  }
}
