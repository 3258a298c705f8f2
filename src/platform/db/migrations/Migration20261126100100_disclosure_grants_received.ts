import { Migration } from '@mikro-orm/migrations';

/**
 * GET /v1/disclosure-grants/received lists the grants a company holds: the active grants by grantee
 * (disclosure_grants is new and small, so a plain index in the migration's transaction).
 */
export class Migration20261126100100_disclosure_grants_received extends Migration {
  override up(): void {
    this.addSql(`create index if not exists disclosure_grants_grantee on disclosure_grants
      (grantee_company_id, environment) where revoked_at is null;`);
  }

  override down(): void {
    this.addSql('drop index if exists disclosure_grants_grantee;');
  }
}
