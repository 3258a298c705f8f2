import type { EntityManager } from '@mikro-orm/postgresql';
import type { Environment } from '../../platform/config/config.ts';

/** A published version not yet in backup_pushes (item or model/batch), with what its Digital Link is made of. */
interface CandidateRow {
  source: 'item' | 'level';
  version_id: string;
  company_id: string;
  environment: Environment;
  passport_key: string;
  gtin: string;
  lot: string | null;
  serial: string | null;
  number: number;
  sha256: string;
  created_at: Date | string;
}

// Items without a GTIN have no Digital Link to serve a copy by: they are not pushed (docs/backup.md).
const CANDIDATES = `
  (select 'item' as source, v.id::text as version_id, v.company_id, v.environment, p.service_uid::text as passport_key,
     p.gtin, null::text as lot, p.token_id::text as serial, v.number, v.sha256, v.created_at
   from passport_versions v join passports p on p.id = v.passport_id
   where p.gtin is not null
     and not exists (select 1 from backup_pushes b where b.provider = ? and b.source = 'item' and b.version_id = v.id)
   order by v.id limit ?)
  union all
  (select 'level', v.id::text, l.company_id, l.environment, l.service_uid::text, l.gtin, l.lot, null::text, v.number,
     v.sha256, v.created_at
   from dpp_level_versions v join dpp_levels l on l.id = v.level_id
   where not exists (select 1 from backup_pushes b where b.provider = ? and b.source = 'level'
     and b.version_id = v.id)
   order by v.id limit ?)`;

/** The Digital Link path of a passport on its own host: model, batch or item, under /test in the test environment. */
export function digitalLinkPath(
  environment: Environment,
  key: { gtin: string; lot: string | null; serial: string | null },
): string {
  const prefix = environment === 'test' ? '/test' : '';
  if (key.serial !== null) return `${prefix}/01/${key.gtin}/21/${encodeURIComponent(key.serial)}`;
  if (key.lot !== null) return `${prefix}/01/${key.gtin}/10/${encodeURIComponent(key.lot)}`;
  return `${prefix}/01/${key.gtin}`;
}

/**
 * Drains the versions tables into backup_pushes: every version recorded since the last call gets its push row
 * for `provider` (unique per version and provider, so concurrent drainers add each once). The versions tables are the outbox: a version is
 * written in its write's transaction, so none can be published without being pushed eventually.
 */
export async function enqueueNewVersions(em: EntityManager, provider: string, limit = 500): Promise<number> {
  const rows = await em
    .getConnection()
    .execute<CandidateRow[]>(CANDIDATES, [provider, limit, provider, limit]);
  if (rows.length === 0) return 0;
  const values = rows.map((row) => [
    provider,
    row.source,
    row.version_id,
    row.company_id,
    row.environment,
    row.passport_key,
    digitalLinkPath(row.environment, row),
    row.number,
    row.sha256,
    new Date(row.created_at),
  ]);
  await em.getConnection().execute(
    `insert into backup_pushes (provider, source, version_id, company_id, environment, passport_key, digital_link_path,
       number, sha256, version_created_at)
     values ${values.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}
     on conflict (provider, source, version_id) do nothing`,
    values.flat(),
  );
  return rows.length;
}

/** The key of a backup provider in backup_pushes: our peer id there and its URL (another provider: every version again). */
export const providerKey = (provider: { peerId: string; url: string }): string =>
  `${provider.peerId}@${provider.url}`;
