import { Migration } from '@mikro-orm/migrations';

/**
 * A provisioned twin may carry its product's declaration of conformity (from the ERP); the toolbox bind's mint
 * takes it before the company default.
 */
export class Migration20261124820000_twin_conformity extends Migration {
  override up(): void {
    this.addSql('alter table asset_twins add column conformity_url text null;');
  }

  override down(): void {
    this.addSql('alter table asset_twins drop column if exists conformity_url;');
  }
}
