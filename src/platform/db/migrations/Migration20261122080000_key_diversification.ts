import { Migration } from '@mikro-orm/migrations';

/**
 * SUN keys may be master keys: each chip's K_SDMFileRead is then diversified from it (NXP AN10922) with
 * input UID || system identifier. Null: the key is used as it is. Not secret: `{scheme, systemIdentifier}`.
 */
export class Migration20261122080000_key_diversification extends Migration {
  override up(): void {
    this.addSql('alter table chip_keys add column file_read_key_diversification jsonb;');
  }

  override down(): void {
    this.addSql('alter table chip_keys drop column if exists file_read_key_diversification;');
  }
}
