import { Migration } from '@mikro-orm/migrations';

/** WebAuthn passkeys of users (several each), and single-use, expiring ceremony challenges. */
export class Migration20261124750000_passkeys extends Migration {
  override up(): void {
    this.addSql(`create table passkeys (
      id text primary key,
      user_id integer not null references users(id) on delete cascade,
      public_key bytea not null,
      counter bigint not null default 0,
      transports jsonb not null default '[]',
      device_type text not null,
      backed_up boolean not null,
      created_at timestamptz not null default now(),
      last_used_at timestamptz null
    );`);
    this.addSql('create index passkeys_user on passkeys (user_id);');
    this.addSql(`create table passkey_challenges (
      challenge text primary key,
      user_id integer not null references users(id) on delete cascade,
      purpose text not null check (purpose in ('register', 'login')),
      expires_at timestamptz not null,
      used_at timestamptz null
    );`);
    this.addSql('create index passkey_challenges_user on passkey_challenges (user_id, purpose);');
  }

  override down(): void {
    this.addSql('drop table if exists passkey_challenges;');
    this.addSql('drop table if exists passkeys;');
  }
}
