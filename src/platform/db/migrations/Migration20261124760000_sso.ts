import { Migration } from '@mikro-orm/migrations';

/**
 * Enterprise SSO: e-mail domains a company proved it holds, its identity provider connection (client secret
 * sealed), the IdP identities of its users (keyed on issuer and subject, never on the e-mail claim alone), and
 * the short-lived state of logins under way (state, nonce, PKCE verifier; for SAML the requests awaiting an
 * answer and the assertions already used, so none is accepted twice).
 */
export class Migration20261124760000_sso extends Migration {
  override up(): void {
    this.addSql(`create table sso_domains (
      domain text primary key,
      company_id uuid not null references companies(id) on delete cascade,
      verification_token text not null,
      verified_at timestamptz null,
      created_at timestamptz not null default now()
    );`);
    this.addSql('create index sso_domains_company on sso_domains (company_id);');
    this.addSql(`create table sso_connections (
      company_id uuid primary key references companies(id) on delete cascade,
      protocol text not null check (protocol in ('oidc', 'saml')),
      issuer text not null,
      client_id text null,
      client_secret_sealed bytea null,
      saml_sso_url text null,
      saml_certificate text null,
      required boolean not null default false,
      updated_at timestamptz not null default now()
    );`);
    this.addSql(`create table saml_requests (
      id text primary key,
      value text not null,
      expires_at timestamptz not null
    );`);
    this.addSql(`create table saml_assertions_seen (
      id text primary key,
      expires_at timestamptz not null
    );`);
    this.addSql(`create table sso_identities (
      issuer text not null,
      subject text not null,
      user_id integer not null references users(id) on delete cascade,
      created_at timestamptz not null default now(),
      primary key (issuer, subject)
    );`);
    this.addSql(`create table sso_logins (
      state text primary key,
      company_id uuid not null references companies(id) on delete cascade,
      environment text not null check (environment in ('live', 'test')),
      domain text not null,
      nonce text not null,
      code_verifier text not null,
      expires_at timestamptz not null,
      used_at timestamptz null
    );`);
  }

  override down(): void {
    for (const table of [
      'saml_assertions_seen',
      'saml_requests',
      'sso_logins',
      'sso_identities',
      'sso_connections',
      'sso_domains',
    ]) {
      this.addSql(`drop table if exists ${table};`);
    }
  }
}
