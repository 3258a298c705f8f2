import { Migration } from '@mikro-orm/migrations';

/**
 * The web console (issue 22): each user's role in their company, and the browser sessions of the console.
 *
 * Roles: `owner` (everything, including the team), `developer` (API keys and the integration), `viewer` (reads).
 * The company's first user owns it; people provisioned later (SSO just in time) start as viewers.
 *
 * A console session is a server-side row behind an HttpOnly cookie: only SHA-256 hashes of its secrets are
 * stored. The secret rotates (`rotated_at`); the previous one is accepted briefly for requests in flight and
 * presenting it later revokes the session (a stolen, superseded cookie is detected).
 */
export class Migration20261125400000_console_sessions extends Migration {
  override up(): void {
    this.addSql(`alter table users add column role text not null default 'viewer'
      check (role in ('owner', 'developer', 'viewer'));`);
    this.addSql(`update users set role = 'owner' where id in (
      select distinct on (company_id) id from users order by company_id, created_at, id);`);
    this.addSql(`create table console_sessions (
      id uuid primary key,
      user_id integer not null references users(id) on delete cascade,
      secret_hash bytea not null unique,
      previous_secret_hash bytea null unique,
      rotated_at timestamptz not null,
      last_seen_at timestamptz not null,
      expires_at timestamptz not null,
      revoked_at timestamptz null,
      created_at timestamptz not null default now()
    );`);
    this.addSql('create index console_sessions_user on console_sessions (user_id) where revoked_at is null;');
  }

  override down(): void {
    this.addSql('drop table if exists console_sessions;');
    this.addSql('alter table users drop column if exists role;');
  }
}
