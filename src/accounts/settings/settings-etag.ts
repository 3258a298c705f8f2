import { hash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TenantScope } from '../../platform/db/tenant-scope.ts';
import { canonicalJson } from '../../standards/ipfs/json.ts';
import { type CompanySettings, readCompanySettings, updateCompanySettings } from './company-settings.ts';

/** The strong ETag of a company's settings as served: over their RFC 8785 form (the defaults when never set). */
export function settingsEtag(settings: CompanySettings): string {
  return `"${hash('sha256', canonicalJson(settings), 'base64url').slice(0, 27)}"`;
}

/** A settings write refused because its If-Match no longer names the settings as they are: 412. */
export class SettingsPreconditionFailed extends Error {
  readonly current: CompanySettings;
  readonly currentEtag: string;

  constructor(current: CompanySettings) {
    super(
      'The settings changed since you read them (If-Match no longer names them): read them again (GET), ' +
        'apply your change, send the new ETag.',
    );
    this.current = current;
    this.currentEtag = settingsEtag(current);
  }
}

/**
 * Changes the settings as {@link updateCompanySettings} does; with `ifMatch` (an If-Match header value) only
 * while it names the settings as they are now (`*` always does: settings always exist, defaults included).
 * Writers of one company and environment take turns (a transaction-scoped advisory lock), so two people who
 * read the same settings cannot both write over them.
 */
export async function changeCompanySettings(
  em: EntityManager,
  scope: TenantScope,
  change: Partial<CompanySettings>,
  ifMatch?: string,
): Promise<CompanySettings> {
  return em.transactional(async (tx) => {
    await tx.execute('select pg_advisory_xact_lock(hashtext(?))', [
      `company_settings:${scope.companyId}:${scope.environment}`,
    ]);
    if (ifMatch !== undefined) {
      const current = await readCompanySettings(tx, scope);
      const etag = settingsEtag(current);
      const holds = ifMatch.trim() === '*' || ifMatch.split(',').some((tag) => tag.trim() === etag);
      if (!holds) throw new SettingsPreconditionFailed(current);
    }
    return updateCompanySettings(tx, scope, change);
  });
}
