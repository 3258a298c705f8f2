import { Migration } from '@mikro-orm/migrations';

/**
 * Versions of a passport's published content (EN 18222 history): one row per change, numbered 1, 2, … per
 * passport, holding the whole document as it was (`content`, the credential-holder's view), the SHA-256 of its
 * canonical form (RFC 8785) and that of its public part (`public_sha256`). Rows are never updated or deleted
 * while the passport exists. `unique (passport_id, number)` keeps two writers from giving one number twice.
 */
export class Migration20261125101000_passport_versions extends Migration {
  override up(): void {
    this.addSql(`create table passport_versions (
      id bigserial primary key,
      company_id uuid not null references companies(id) on delete cascade,
      environment text not null check (environment in ('live', 'test')),
      passport_id integer not null references passports(id) on delete cascade,
      number integer not null check (number >= 1),
      sha256 char(64) not null,
      public_sha256 char(64) not null,
      content jsonb not null,
      created_at timestamptz not null,
      unique (passport_id, number)
    );`);
  }

  override down(): void {
    this.addSql('drop table if exists passport_versions;');
  }
}
