import type { EntityManager } from '@mikro-orm/postgresql';
import type { FileReadKeyDiversification } from '../platform/db/entities/chip-keys.ts';
import type { TenantScope } from '../platform/db/tenant-scope.ts';
import type { SecretBox } from '../platform/secret-box.ts';
import type { SunKeys } from '../standards/sun/index.ts';
import { openSunKeys } from './chip-keys.ts';

/**
 * A company's SDM keys, opened, with the version of the chip_keys row they came from (its xmin; null: no row,
 * the test environment's factory keys). record_tap compares that version with the row's and records nothing when
 * it has changed, so keys kept here are never used to accept a tap after the company replaced them.
 */
export interface CompanySunKeys {
  keys: SunKeys;
  version: string | null;
}

// Raw statements bypass the ORM's tenant filter, so the statement names company and environment itself.
const KEYS_OF_COMPANY = `
  select xmin::text as version, meta_read_key, file_read_key, file_read_key_diversification
  from chip_keys where company_id = ? and environment = ?`;

// Per secret box (one per configuration), so keys opened under one data-encryption key never answer another.
const kept = new WeakMap<SecretBox, Map<string, CompanySunKeys>>();
const MAX_KEPT = 10_000;

function keptFor(box: SecretBox): Map<string, CompanySunKeys> {
  let companies = kept.get(box);
  if (!companies) {
    companies = new Map();
    kept.set(box, companies);
  }
  return companies;
}

/**
 * The keys to verify a company's taps with: the ones kept in memory, else read (and kept). Throws
 * chip_keys_not_configured for live without keys (not kept: keys set later apply at once).
 */
export async function companySunKeys(
  em: EntityManager,
  box: SecretBox,
  scope: TenantScope,
  options: { fresh?: boolean } = {},
): Promise<CompanySunKeys & { fresh: boolean }> {
  const companies = keptFor(box);
  const name = `${scope.companyId}|${scope.environment}`;
  const known = options.fresh ? undefined : companies.get(name);
  if (known) return { ...known, fresh: false };
  const [row] = await em.execute<
    {
      version: string;
      meta_read_key: Uint8Array;
      file_read_key: Uint8Array;
      file_read_key_diversification: FileReadKeyDiversification | null;
    }[]
  >(KEYS_OF_COMPANY, [scope.companyId, scope.environment]);
  const keys = openSunKeys(
    box,
    scope,
    row
      ? {
          metaReadKey: row.meta_read_key,
          fileReadKey: row.file_read_key,
          fileReadKeyDiversification: row.file_read_key_diversification,
        }
      : null,
  );
  const opened = { keys, version: row?.version ?? null };
  if (companies.size >= MAX_KEPT) companies.clear();
  companies.set(name, opened);
  return { ...opened, fresh: true };
}
