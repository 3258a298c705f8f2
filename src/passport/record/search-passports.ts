import type { EntityManager } from '@mikro-orm/postgresql';
import type { TenantScope } from '../../platform/db/tenant-scope.ts';

/** A passport's status as people see it: RECYCLED, REVOKED (its credential's status bit set), else ACTIVE. */
export const PASSPORT_STATUSES = ['ACTIVE', 'REVOKED', 'RECYCLED'] as const;
export type PassportStatus = (typeof PASSPORT_STATUSES)[number];

/** Most passports one search answer carries. */
export const PASSPORT_SEARCH_MAX = 100;

export interface PassportSearch {
  /** A fragment of the product name, GTIN, batch, chip UID or token id (any case; at least 3 characters). */
  q?: string | undefined;
  /** Canonical chip UID (14 upper-case hex digits). */
  chipUid?: string | undefined;
  tokenId?: string | undefined;
  /** GTIN-14. */
  gtin?: string | undefined;
  /** The batch/lot given at mint (custom_dpp_data.batch_number), exactly. */
  batch?: string | undefined;
  status?: PassportStatus | undefined;
  limit: number;
  /** The previous page's nextCursor: passports older than it (lower id). */
  after?: number | undefined;
}

export interface PassportSummary {
  tokenId: string;
  chipUid: string;
  name: string | null;
  gtin: string | null;
  batch: string | null;
  productId: string | null;
  status: string;
  mintedAt: string;
  /** The mint's transaction. */
  transactionHash: string;
}

const BATCH = `(p.metadata_cache->'custom_dpp_data'->>'batch_number')`;

/** Shortest free-text fragment: shorter ones have no trigram, so the index could not narrow them. */
export const PASSPORT_SEARCH_TEXT_MIN = 3;

/** What free text matches; the same expression as the trigram index passports_search_text_trgm. */
const SEARCH_TEXT = `lower(coalesce(p.metadata_cache->>'name', '') || ' ' || coalesce(p.gtin, '') || ' ' ||
  coalesce(${BATCH}, '') || ' ' || p.chip_uid || ' ' || p.token_id)`;

/** `%fragment%` for LIKE, with LIKE's own wildcards and escape character taken literally. */
function containsPattern(fragment: string): string {
  return `%${fragment.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The SQL condition of a status, each served by its own index (see Migration20261125600000_passport_search). */
const STATUS_CONDITION: Record<PassportStatus, string> = {
  ACTIVE: `p.status = 'ACTIVE' and p.revoked_at is null`,
  REVOKED: `p.revoked_at is not null and p.status <> 'RECYCLED'`,
  RECYCLED: `p.status = 'RECYCLED'`,
};

/** The status shown for a passport row (recycling also revokes: RECYCLED wins). */
export function passportStatus(row: { status: string; revokedAt?: Date | null | undefined }): string {
  if (row.status === 'RECYCLED') return 'RECYCLED';
  return row.revokedAt ? 'REVOKED' : row.status;
}

interface SearchRow {
  id: number;
  token_id: string;
  chip_uid: string;
  name: string | null;
  gtin: string | null;
  batch: string | null;
  product_id: string | null;
  status: string;
  revoked_at: Date | null;
  mint_timestamp: Date;
  transaction_hash: string;
}

/**
 * One page of the company's passports in this environment, newest first (keyset on the passport id, so page n
 * costs what page 1 costs), narrowed by any of a free-text fragment, chip UID, token id, GTIN, batch and status
 * (all given must match). The fragment reads the trigram index (Migration20261127920000_passport_text_search). Each filter reads a range of an index in id order: chip UID and token id are unique per environment,
 * GTIN, batch and status have a (company, environment, value, id) index. Raw SQL bypasses the ORM's tenant
 * filter, hence the explicit company and environment.
 */
export async function listPassports(
  em: EntityManager,
  scope: TenantScope,
  search: PassportSearch,
): Promise<{ passports: PassportSummary[]; nextCursor: string | null }> {
  const where = ['p.company_id = ?', 'p.environment = ?'];
  const params: unknown[] = [scope.companyId, scope.environment];
  const add = (condition: string, value?: unknown) => {
    where.push(condition);
    if (value !== undefined) params.push(value);
  };
  if (search.q !== undefined) add(`${SEARCH_TEXT} like ?`, containsPattern(search.q));
  if (search.chipUid !== undefined) add('p.chip_uid = ?', search.chipUid);
  if (search.tokenId !== undefined) add('p.token_id = ?', search.tokenId);
  if (search.gtin !== undefined) add('p.gtin = ?', search.gtin);
  if (search.batch !== undefined) add(`${BATCH} = ?`, search.batch);
  if (search.status !== undefined) add(STATUS_CONDITION[search.status]);
  if (search.after !== undefined) add('p.id < ?', search.after);
  params.push(search.limit + 1);
  const rows = await em.execute<SearchRow[]>(
    `select p.id, p.token_id, p.chip_uid, p.metadata_cache->>'name' as name, p.gtin, ${BATCH} as batch,
       p.product_id, p.status, p.revoked_at, p.mint_timestamp, p.transaction_hash
     from passports p
     where ${where.join(' and ')}
     order by p.id desc
     limit ?`,
    params,
  );
  const page = rows.slice(0, search.limit);
  return {
    passports: page.map((row) => ({
      tokenId: row.token_id,
      chipUid: row.chip_uid,
      name: row.name,
      gtin: row.gtin,
      batch: row.batch,
      productId: row.product_id,
      status: passportStatus({ status: row.status, revokedAt: row.revoked_at }),
      mintedAt: new Date(row.mint_timestamp).toISOString(),
      transactionHash: row.transaction_hash,
    })),
    nextCursor: rows.length > search.limit ? String(page.at(-1)!.id) : null,
  };
}
