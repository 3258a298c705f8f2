import type { EntityManager, PostgreSqlConnection } from '@mikro-orm/postgresql';
import type { QueryConfig } from 'pg';
import type { Environment } from '../../platform/config/config.ts';
import { CoalescedReads } from '../../platform/db/coalesced-reads.ts';
import {
  PINNED_SPECIFICATIONS_SQL,
  PRODUCT_GROUP_DATA_SQL,
  type ProductGroupEntry,
  pinnedIds,
  productGroupEntries,
} from '../content/pinned-sql.ts';
import {
  ITEM_LEVELS_SQL,
  ITEM_LEVELS_STAMP_SQL,
  type ItemLevel,
  itemLevelsOf,
} from '../levels/item-levels.ts';
import { pgTimestamp } from '../record/pg-values.ts';
import { FactsByContent, RAW_JSON_TYPES } from './facts-by-content.ts';

/**
 * Everything a passport credential is built from that can change, as one text: the row versions (xmin: the
 * transaction that last wrote the row) of the passport, its chip and its company, its status entry, and its
 * events' count, last id and number anchored (an event is written once and anchored once), and its model's and
 * batch's passports with each one's latest version number (a level created later, or changed, makes the stamp
 * differ, docs/granularity.md). Computed by the
 * same statement that reads the inputs, so a stored stamp never claims newer inputs than its credential has;
 * a write that changes nothing the credential says costs one rebuild that finds the same content hash.
 */
export const INPUTS_STAMP_SQL = `concat_ws('|', p.xmin, c.xmin, co.xmin, p.status_list_index,
  (select concat(count(*), ',', max(e.id), ',', count(e.transaction_hash)) from supply_chain_events e
   where e.environment = p.environment and e.token_id = p.token_id), ${ITEM_LEVELS_STAMP_SQL})`;

/**
 * One statement on the `pg` pool behind the ORM's connection (the same connections): the hot paths skip the
 * ORM's query layer, which costs more CPU per statement than the statement itself, and use named (prepared)
 * statements. `$n` placeholders.
 */
async function poolQuery<T>(
  em: EntityManager,
  name: string,
  sql: string,
  params: unknown[],
  types?: QueryConfig['types'],
): Promise<T[]> {
  // Asked every time, not kept: the ORM replaces its pool when it reconnects.
  const pool = await (em.getConnection() as PostgreSqlConnection).getNativeClient();
  // A named statement is parsed and planned once per connection, not on every request. Requests for the
  // same passport that wait for a connection together share the read (CoalescedReads: each still sees every
  // write committed before it arrived).
  let reads = coalescedReads.get(pool);
  if (!reads) {
    reads = new CoalescedReads();
    coalescedReads.set(pool, reads);
  }
  return (await reads.read(pool, `${name}\u0000${params.join('\u0000')}`, {
    name,
    text: sql,
    values: params,
    ...(types ? { types } : {}),
  })) as T[];
}

/** One per pool: a process may hold several databases' pools (tests do). */
const coalescedReads = new WeakMap<object, CoalescedReads>();

/** What format=public shows, read alone (the hot path of consumer scans). */
export interface PublicFacts {
  tokenId: string;
  gtin: string | null;
  batch: string | null;
  name: string | null;
  status: string;
  revokedAt: Date | null;
  /** The EN 18222 status its company set (suspended, archived) and, archived, until when it is kept. */
  dppStatus: string | null;
  retainUntil: Date | null;
  contractAddress: string;
  verificationCount: number;
  /** For the EN 18223 header (dppHeader): the passport's service UID and its company's header settings. */
  serviceUid: string;
  economicOperatorId: string | null;
  facilityId: string | null;
  /** When its latest content version was recorded (its last write before versions existed). */
  lastUpdated: Date;
  /** The product-group content specifications it is pinned to (src/passport/content). */
  productGroupSpecificationIds: string[];
  /** Its own product-group data (only ever served cut to the public's fields, merged over its levels'). */
  productGroupData: ProductGroupEntry[];
  /** Its model and batch passports with their data (docs/granularity.md), most general first. */
  levels: ItemLevel[];
}

export const PUBLIC_FACTS = `select p.token_id, p.gtin, p.metadata_cache->'custom_dpp_data'->>'batch_number' as batch,
  p.metadata_cache->>'name' as name, p.status, p.revoked_at, p.dpp_status, p.retain_until, p.contract_address,
  c.verification_count,
  p.service_uid, cs.economic_operator_id, cs.facility_id,
  coalesce((select v.created_at from passport_versions v where v.passport_id = p.id
    order by v.number desc limit 1), p.updated_at) as last_updated,
  ${PINNED_SPECIFICATIONS_SQL} as pinned_specifications, ${PRODUCT_GROUP_DATA_SQL} as product_group_data,
  ${ITEM_LEVELS_SQL} as levels
  from passports p join chips c on c.id = p.chip_id
  left join company_settings cs on cs.company_id = p.company_id and cs.environment = p.environment
  where p.environment = $1 and p.token_id = $2`;

/** A row of {@link PUBLIC_FACTS} as the `pg` driver answers it. */
export interface PublicFactsRow {
  token_id: string;
  gtin: string | null;
  batch: string | null;
  name: string | null;
  status: string;
  revoked_at: string | null;
  dpp_status: string | null;
  retain_until: string | null;
  contract_address: string;
  verification_count: number;
  service_uid: string;
  economic_operator_id: string | null;
  facility_id: string | null;
  last_updated: string;
  pinned_specifications: unknown;
  product_group_data: unknown;
  levels: unknown;
}

/** The facts of a {@link PUBLIC_FACTS} row (also what the resolver bench's bare baseline serves from). */
export function publicFactsOf(row: PublicFactsRow): PublicFacts {
  return {
    tokenId: row.token_id,
    gtin: row.gtin,
    batch: row.batch,
    name: row.name,
    status: row.status,
    revokedAt: pgTimestamp(row.revoked_at),
    dppStatus: row.dpp_status,
    retainUntil: pgTimestamp(row.retain_until),
    contractAddress: row.contract_address,
    verificationCount: row.verification_count,
    serviceUid: row.service_uid,
    economicOperatorId: row.economic_operator_id,
    facilityId: row.facility_id,
    lastUpdated: pgTimestamp(row.last_updated),
    productGroupSpecificationIds: pinnedIds(row.pinned_specifications),
    productGroupData: productGroupEntries(row.product_group_data),
    levels: itemLevelsOf(row.levels),
  };
}

/** The facts of the passports read lately, by row content: an unchanged row gives the same facts object. */
const factsByContent = new FactsByContent<PublicFacts>(5_000);

export async function findPublicFacts(
  em: EntityManager,
  environment: Environment,
  tokenId: string,
): Promise<PublicFacts | undefined> {
  const [row] = await poolQuery<PublicFactsRow>(
    em,
    'dpp-public-facts',
    PUBLIC_FACTS,
    [environment, tokenId],
    RAW_JSON_TYPES,
  );
  // The same facts for the same row (read only): what is made of them can be kept with them (representation.ts).
  return row && factsByContent.of(`${environment}\u0000${tokenId}`, row, () => publicFactsOf(row));
}

/** The stored credential of a passport with the stamp of its current inputs (format=vc's fast path). */
export interface StoredCredential {
  gtin: string | null;
  batch: string | null;
  /** The inputs as they are now (INPUTS_STAMP_SQL). */
  stamp: string;
  /** The inputs the stored credential was built from, with its key and settings; null: none stored. */
  inputsStamp: string | null;
  credential: string | null;
  /** The stored bytes' ETag. */
  etag: string | null;
}

export const STORED_CREDENTIAL = `select p.gtin, p.metadata_cache->'custom_dpp_data'->>'batch_number' as batch,
  ${INPUTS_STAMP_SQL} as stamp, pc.inputs_stamp, pc.credential, pc.etag
  from passports p join chips c on c.id = p.chip_id join companies co on co.id = p.company_id
  left join passport_credentials pc on pc.passport_id = p.id
  where p.environment = $1 and p.token_id = $2`;

export async function findStoredCredential(
  em: EntityManager,
  environment: Environment,
  tokenId: string,
): Promise<StoredCredential | undefined> {
  const [row] = await poolQuery<{
    gtin: string | null;
    batch: string | null;
    stamp: string;
    inputs_stamp: string | null;
    credential: string | null;
    etag: string | null;
  }>(em, 'dpp-stored-credential', STORED_CREDENTIAL, [environment, tokenId]);
  if (!row) return undefined;
  return {
    gtin: row.gtin,
    batch: row.batch,
    stamp: row.stamp,
    inputsStamp: row.inputs_stamp,
    credential: row.credential,
    etag: row.etag,
  };
}
