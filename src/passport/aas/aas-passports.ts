import type { EntityManager } from '@mikro-orm/postgresql';
import type { Environment } from '../../platform/config/config.ts';
import { contentSpecifications } from '../content/content-specification.ts';
import { ITEM_LEVELS_JOIN } from '../content/inherited-layers.ts';
import { PINNED_SPECIFICATIONS_SQL, pinnedIds } from '../content/pinned-sql.ts';
import { mergeSection } from '../levels/inherit.ts';
import { inheritedSectionsOfItems } from '../levels/inherited-by-item.ts';

/** What the AAS API reads of a passport, its chip and its company: one row, all of it public. */
export interface AasPassportRow {
  /** Internal ids: the passport's row and its brand (for its product-group data and the caller's roles). */
  passportId: number;
  companyId: string;
  tokenId: string;
  serviceUid: string;
  environment: Environment;
  /** The item's model and batch passports (docs/granularity.md), found by key as every read finds them. */
  levels?: readonly { granularity: 'model' | 'batch'; serviceUid: string }[] | undefined;
  gtin: string | null;
  chipUid: string;
  status: string;
  revokedAt: Date | null;
  /** The EN 18222 status its company set (suspended, archived) and, archived, until when it is kept. */
  dppStatus?: string | null;
  retainUntil?: Date | null;
  metadataCache: Record<string, unknown>;
  productId: string | null;
  material: string | null;
  lockedDepositWei: string;
  contractAddress: string;
  transactionHash: string;
  metadataUrl: string;
  mintTimestamp: Date;
  updatedAt: Date;
  companyName: string;
  verificationCount: number;
  lastVerifiedAt: Date | null;
  /** The company's EN 18223 header settings in this environment (null until it sets them). */
  economicOperatorId: string | null;
  facilityId: string | null;
  /** When its latest content version was recorded (its last write before versions existed). */
  lastUpdated: Date;
  /** The product-group content specifications it is pinned to (src/passport/content). */
  productGroupSpecificationIds?: string[] | undefined;
}

const COLUMNS = `p.id as passport_id, p.company_id, p.token_id, p.service_uid, p.environment, p.gtin, p.chip_uid, p.status, p.revoked_at,
  p.dpp_status, p.retain_until,
  p.metadata_cache, p.product_id, p.material, p.locked_deposit_wei::text as locked_deposit_wei,
  p.contract_address, p.transaction_hash, p.metadata_url, p.mint_timestamp, p.updated_at,
  co.name as company_name, c.verification_count, c.last_verified_at, cs.economic_operator_id, cs.facility_id,
  coalesce((select v.created_at from passport_versions v where v.passport_id = p.id
    order by v.number desc limit 1), p.updated_at) as last_updated,
  ${PINNED_SPECIFICATIONS_SQL} as pinned_specifications,
  (select jsonb_agg(jsonb_build_object('granularity', l.granularity, 'serviceUid', l.service_uid))
     from passports lp ${ITEM_LEVELS_JOIN.replaceAll('p.', 'lp.')} where lp.id = p.id) as levels`;
const FROM = `from passports p join chips c on c.id = p.chip_id join companies co on co.id = p.company_id
  left join company_settings cs on cs.company_id = p.company_id and cs.environment = p.environment`;
/**
 * The passports the AAS API lists: active ones (not revoked, not recycled). A recycled or revoked passport's
 * shell stays readable by its id, as on the resolver.
 */
const LISTED = `p.status = 'ACTIVE' and p.revoked_at is null`;

interface Row {
  passport_id: number | string;
  company_id: string;
  token_id: string;
  service_uid: string;
  environment: Environment;
  gtin: string | null;
  chip_uid: string;
  status: string;
  revoked_at: Date | string | null;
  dpp_status: string | null;
  retain_until: Date | string | null;
  metadata_cache: Record<string, unknown>;
  product_id: string | null;
  material: string | null;
  locked_deposit_wei: string;
  contract_address: string;
  transaction_hash: string;
  metadata_url: string;
  mint_timestamp: Date | string;
  updated_at: Date | string;
  company_name: string;
  verification_count: number;
  last_verified_at: Date | string | null;
  economic_operator_id: string | null;
  facility_id: string | null;
  last_updated: Date | string;
  pinned_specifications: unknown;
  levels: { granularity: 'model' | 'batch'; serviceUid: string }[] | null;
}

const date = (value: Date | string) => (value instanceof Date ? value : new Date(value));

function toPassport(row: Row): AasPassportRow {
  return {
    passportId: Number(row.passport_id),
    companyId: row.company_id,
    tokenId: row.token_id,
    serviceUid: row.service_uid,
    environment: row.environment,
    gtin: row.gtin,
    chipUid: row.chip_uid,
    status: row.status,
    revokedAt: row.revoked_at === null ? null : date(row.revoked_at),
    dppStatus: row.dpp_status,
    retainUntil: row.retain_until === null ? null : date(row.retain_until),
    metadataCache: row.metadata_cache ?? {},
    productId: row.product_id,
    material: row.material,
    lockedDepositWei: row.locked_deposit_wei,
    contractAddress: row.contract_address,
    transactionHash: row.transaction_hash,
    metadataUrl: row.metadata_url,
    mintTimestamp: date(row.mint_timestamp),
    updatedAt: date(row.updated_at),
    companyName: row.company_name,
    verificationCount: row.verification_count,
    lastVerifiedAt: row.last_verified_at === null ? null : date(row.last_verified_at),
    economicOperatorId: row.economic_operator_id,
    facilityId: row.facility_id,
    levels: row.levels ?? [],
    lastUpdated: date(row.last_updated),
    productGroupSpecificationIds: pinnedIds(row.pinned_specifications),
  };
}

/**
 * One page of the environment's active passports in token id order (the text order of passports_token_idx),
 * from the first token id after `after` (or from `from` on; keyset: a page costs the same at any depth). Raw statement: the AAS
 * API is public and reads every company's passports of the environment.
 */
export async function listAasPassports(
  em: EntityManager,
  environment: Environment,
  page: {
    limit: number;
    after?: string | undefined;
    from?: string | undefined;
    /** Only passports holding data of this product group (passport_content, by its primary key). */
    group?: string | undefined;
  },
): Promise<AasPassportRow[]> {
  const start = page.after ?? page.from;
  const comparison = page.after === undefined ? '>=' : '>';
  const where = [`p.environment = ?`, LISTED];
  const params: unknown[] = [environment];
  if (start !== undefined) {
    where.push(`p.token_id ${comparison} ?`);
    params.push(start);
  }
  if (page.group !== undefined) {
    where.push(
      'exists (select 1 from passport_content pc where pc.passport_id = p.id and pc.spec_group = ?)',
    );
    params.push(page.group);
  }
  const rows = await em
    .getConnection()
    .execute<Row[]>(`select ${COLUMNS} ${FROM} where ${where.join(' and ')} order by p.token_id limit ?`, [
      ...params,
      page.limit,
    ]);
  return rows.map(toPassport);
}

/**
 * The product-group data of `group` of these passports (the public AAS API cuts it per caller before it
 * serialises anything), by passport id: an item's merged over its model's and batch's (docs/granularity.md,
 * the one merge: mergeSection), so the AAS API states the same merged view as the other representations; an
 * incomplete merged section is left out (below).
 */
export async function aasPassportContents(
  em: EntityManager,
  passportIds: number[],
  group: string,
): Promise<Map<number, { specificationId: string; data: Record<string, unknown> }>> {
  if (passportIds.length === 0) return new Map();
  const rows = await em
    .getConnection()
    .execute<{ passport_id: number | string; specification_id: string; data: Record<string, unknown> }[]>(
      `select passport_id, specification_id, data from passport_content
        where passport_id in (${passportIds.map(() => '?').join(', ')}) and spec_group = ?`,
      [...passportIds, group],
    );
  const own = new Map(
    rows.map((row) => [Number(row.passport_id), { specificationId: row.specification_id, data: row.data }]),
  );
  const levels = await inheritedSectionsOfItems(em, passportIds, group);
  const merged = new Map<number, { specificationId: string; data: Record<string, unknown> }>();
  for (const passportId of passportIds) {
    const inherited = levels.get(passportId) ?? [];
    const mine = own.get(passportId);
    if (inherited.length === 0) {
      if (mine) merged.set(passportId, mine);
      continue;
    }
    // The item's own dppId only names sources, which the AAS forms do not carry.
    const section = mergeSection(group, inherited, mine ? { dppId: '', ...mine } : undefined);
    // The IDTA submodels map a complete section; a merged view still incomplete (an item that has written
    // nothing yet under a partial model) is served without them, as an item without data of the group.
    if (section && contentSpecifications.validate(section.specificationId, section.data).length === 0) {
      merged.set(passportId, { specificationId: section.specificationId, data: section.data });
    }
  }
  return merged;
}

/** One passport of the environment by token id, whatever its state (undefined when there is none). */
export async function findAasPassport(
  em: EntityManager,
  environment: Environment,
  tokenId: string,
): Promise<AasPassportRow | undefined> {
  const [row] = await em
    .getConnection()
    .execute<Row[]>(`select ${COLUMNS} ${FROM} where p.environment = ? and p.token_id = ?`, [
      environment,
      tokenId,
    ]);
  return row ? toPassport(row) : undefined;
}
