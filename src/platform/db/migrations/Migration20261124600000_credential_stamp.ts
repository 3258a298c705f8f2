import { Migration } from '@mikro-orm/migrations';

/**
 * What a stored passport credential was built from, in a form one indexed statement recomputes (row versions,
 * counts, issuer key): while it matches, the resolver serves the stored credential without rebuilding it, with
 * the ETag stored beside it (its bytes are not hashed per request).
 */
export class Migration20261124600000_credential_stamp extends Migration {
  override up(): void {
    this.addSql(
      'alter table passport_credentials add column inputs_stamp text null, add column etag text null;',
    );
  }

  override down(): void {
    this.addSql(
      'alter table passport_credentials drop column if exists inputs_stamp, drop column if exists etag;',
    );
  }
}
