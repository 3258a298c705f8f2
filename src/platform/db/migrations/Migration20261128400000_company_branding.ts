import { Migration } from '@mikro-orm/migrations';

/**
 * A company's branding of its verification pages, per environment (issue 37, docs/verification-page.md): the
 * name shown, colours, the default language of its passport texts, where its owner actions lead, and its logo
 * (the image itself, stored by us and served from our origin, content-addressed by its SHA-256).
 */
export class Migration20261128400000_company_branding extends Migration {
  override up(): void {
    this.addSql(`create table company_branding (
      company_id uuid not null references companies(id) on delete cascade,
      environment text not null check (environment in ('live', 'test')),
      display_name text,
      brand_color text check (brand_color ~ '^#[0-9a-f]{6}$'),
      link_color text check (link_color ~ '^#[0-9a-f]{6}$'),
      default_language text not null default 'en',
      care_url text,
      repair_url text,
      resale_url text,
      recycling_url text,
      contact_email text,
      contact_url text,
      logo bytea,
      logo_type text,
      logo_hash text,
      updated_at timestamptz not null default now(),
      primary key (company_id, environment)
    );`);
    this.addSql(
      'create index company_branding_logo on company_branding (logo_hash) where logo_hash is not null;',
    );
  }

  override down(): void {
    this.addSql('drop table company_branding;');
  }
}
