import type { EntityManager } from '@mikro-orm/postgresql';
import type { Environment } from '../../platform/config/config.ts';
import { PINNED_SPECIFICATIONS_SQL, pinnedIds } from '../content/pinned-sql.ts';
import { ITEM_LEVEL_REFS_SQL, itemLevelRefs } from './item-level-refs.ts';
import {
  type ContentEvent,
  documentSha256,
  type PassportContentFacts,
  type PassportDocument,
  passportDocument,
  publicPart,
  type RelatedPassportFact,
} from './passport-document.ts';
import { pgTimestamp } from './pg-values.ts';

/** One stored version of a passport's content. */
export interface PassportVersion {
  number: number;
  /** SHA-256 (hex) of the RFC 8785 canonical form of `content` (the whole document). */
  sha256: string;
  /** SHA-256 (hex) of the canonical form of `publicPart(content)`: what a reader without credential checks. */
  publicSha256: string;
  createdAt: Date;
  content: PassportDocument;
}

interface PassportRow {
  id: number;
  company_id: string;
  environment: Environment;
  service_uid: string;
  token_id: string;
  chip_uid: string;
  product_id: string | null;
  gtin: string | null;
  owner_wallet: string;
  material: string | null;
  warranty_expiry: string | Date | null;
  metadata_url: string;
  metadata_cache: Record<string, unknown>;
  erp_material_id: string | null;
  erp_serial: string | null;
  erp_order_id: string | null;
  parent_uid: string | null;
  transaction_hash: string;
  mint_timestamp: string | Date;
  locked_deposit_wei: string;
  contract_address: string;
  status: string;
  revoked_at: string | Date | null;
  revocation_reason: string | null;
  dpp_status: string | null;
  retain_until: string | Date | null;
  economic_operator_id: string | null;
  facility_id: string | null;
  pinned_specifications: unknown;
  product_group_data: unknown;
  related_passports: unknown;
  levels: unknown;
}

/** A supply_chain_events row as the passport document reads it. */
export interface EventRow {
  id: number;
  action: string;
  actor: string | null;
  actor_email: string | null;
  location_name: string | null;
  latitude: number | string | null;
  longitude: number | string | null;
  metadata: Record<string, unknown>;
  timestamp: string | Date;
}

const num = (value: number | string | null): number | null => (value === null ? null : Number(value));

/**
 * Everything the passport's document is built from, in two statements whatever the number of events (the
 * passport with its company's header settings; its events in id order). `lock` takes the passport row for
 * update first, so concurrent writers of one passport number their versions one after the other.
 */
export async function loadPassportContent(
  em: EntityManager,
  passportId: number,
  options: { lock?: boolean } = {},
): Promise<PassportContentFacts | undefined> {
  const [row] = await em.execute<PassportRow[]>(
    `select p.id, p.company_id, p.environment, p.service_uid, p.token_id, p.chip_uid, p.product_id, p.gtin,
       p.owner_wallet, p.material, p.warranty_expiry, p.metadata_url, p.metadata_cache, p.erp_material_id,
       p.erp_serial, p.erp_order_id, p.parent_uid, p.transaction_hash, p.mint_timestamp,
       p.locked_deposit_wei::text as locked_deposit_wei, p.contract_address, p.status, p.revoked_at,
       p.revocation_reason, p.dpp_status, p.retain_until, cs.economic_operator_id, cs.facility_id,
       ${PINNED_SPECIFICATIONS_SQL} as pinned_specifications, ${PRODUCT_GROUP_DATA_SQL} as product_group_data,
       ${RELATED_PASSPORTS_SQL} as related_passports, ${ITEM_LEVEL_REFS_SQL} as levels
     from passports p
     left join company_settings cs on cs.company_id = p.company_id and cs.environment = p.environment
     where p.id = ?${options.lock ? ' for update of p' : ''}`,
    [passportId],
  );
  if (!row) return undefined;
  const events = await em.execute<EventRow[]>(
    `select id, action, actor, actor_email, location_name, latitude, longitude, metadata, timestamp
     from supply_chain_events where environment = ? and token_id = ? and company_id = ? order by id`,
    [row.environment, row.token_id, row.company_id],
  );
  return {
    id: row.id,
    companyId: row.company_id,
    environment: row.environment,
    serviceUid: row.service_uid,
    tokenId: row.token_id,
    chipUid: row.chip_uid,
    productId: row.product_id,
    gtin: row.gtin,
    ownerWallet: row.owner_wallet,
    material: row.material,
    warrantyExpiry: pgTimestamp(row.warranty_expiry),
    metadataUrl: row.metadata_url,
    metadata: row.metadata_cache,
    erpMaterialId: row.erp_material_id,
    erpSerial: row.erp_serial,
    erpOrderId: row.erp_order_id,
    parentUid: row.parent_uid,
    transactionHash: row.transaction_hash,
    mintTimestamp: pgTimestamp(row.mint_timestamp),
    lockedDepositWei: row.locked_deposit_wei,
    contractAddress: row.contract_address,
    status: row.status,
    revokedAt: pgTimestamp(row.revoked_at),
    revocationReason: row.revocation_reason,
    dppStatus: row.dpp_status,
    retainUntil: row.retain_until === null ? null : pgTimestamp(row.retain_until),
    economicOperatorId: row.economic_operator_id,
    facilityId: row.facility_id,
    productGroupSpecificationIds: pinnedIds(row.pinned_specifications),
    productGroupData: jsonArray(row.product_group_data).map((entry) => ({
      specificationId: String(entry.specificationId),
      data: entry.data as Record<string, unknown>,
    })),
    relatedPassports: relatedPassportFacts(row.related_passports),
    levels: itemLevelRefs(row.levels),
    events: events.map(
      (event): ContentEvent => ({
        id: event.id,
        action: event.action,
        actor: event.actor,
        actorEmail: event.actor_email,
        locationName: event.location_name,
        latitude: num(event.latitude),
        longitude: num(event.longitude),
        metadata: event.metadata,
        timestamp: pgTimestamp(event.timestamp),
      }),
    ),
  };
}

/** The passport's product-group data, one entry per pinned specification, in group order (a jsonb array). */
const PRODUCT_GROUP_DATA_SQL = `coalesce((select jsonb_agg(jsonb_build_object('specificationId', pc.specification_id,
    'data', pc.data) order by pc.spec_group) from passport_content pc where pc.passport_id = p.id), '[]'::jsonb)`;

/**
 * The passports this one was made from (repurposedFrom…) and became (repurposedAs…), oldest link first (a jsonb
 * array of {relation, serviceUid, environment, gtin, tokenId, linkedAt}).
 */
const RELATED_PASSPORTS_SQL = `coalesce((select jsonb_agg(r.link order by r.created_at, r.id) from (
    select l.created_at, l.id, jsonb_build_object('relation', l.relation || 'From', 'serviceUid', o.service_uid,
      'environment', o.environment, 'gtin', o.gtin, 'tokenId', o.token_id, 'linkedAt', l.created_at) as link
      from passport_links l join passports o on o.id = l.original_passport_id where l.successor_passport_id = p.id
    union all
    select l.created_at, l.id, jsonb_build_object('relation', l.relation || 'As', 'serviceUid', s.service_uid,
      'environment', s.environment, 'gtin', s.gtin, 'tokenId', s.token_id, 'linkedAt', l.created_at) as link
      from passport_links l join passports s on s.id = l.successor_passport_id where l.original_passport_id = p.id
  ) r), '[]'::jsonb)`;

const jsonArray = (value: unknown): Record<string, unknown>[] => {
  const parsed = typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
  return Array.isArray(parsed) ? (parsed as Record<string, unknown>[]) : [];
};

function relatedPassportFacts(value: unknown): RelatedPassportFact[] {
  return jsonArray(value).map((link) => ({
    relation: link.relation as RelatedPassportFact['relation'],
    serviceUid: String(link.serviceUid),
    environment: link.environment as Environment,
    gtin: (link.gtin as string | null) ?? null,
    tokenId: String(link.tokenId),
    linkedAt: new Date(String(link.linkedAt)),
  }));
}

/** The passport's links to the passports of the same product's other lives (for the GS1 linkset). */
export async function loadRelatedPassports(
  em: EntityManager,
  passportId: number,
): Promise<RelatedPassportFact[]> {
  const [row] = await em
    .getConnection()
    .execute<{ related: unknown }[]>(
      `select ${RELATED_PASSPORTS_SQL} as related from passports p where p.id = ?`,
      [passportId],
    );
  return row ? relatedPassportFacts(row.related) : [];
}

interface VersionRow {
  number: number;
  sha256: string;
  public_sha256: string;
  created_at: string | Date;
  content: PassportDocument;
}

const fromRow = (row: VersionRow): PassportVersion => ({
  number: row.number,
  sha256: row.sha256,
  publicSha256: row.public_sha256,
  createdAt: pgTimestamp(row.created_at),
  content: row.content,
});

/** The passport's latest version (highest number), if it has one. */
export async function latestPassportVersion(
  em: EntityManager,
  passportId: number,
): Promise<PassportVersion | undefined> {
  const [row] = await em.execute<VersionRow[]>(
    `select number, sha256, public_sha256, created_at, content from passport_versions
     where passport_id = ? order by number desc limit 1`,
    [passportId],
  );
  return row ? fromRow(row) : undefined;
}

/** One version by its number. */
export async function passportVersionByNumber(
  em: EntityManager,
  passportId: number,
  number: number,
): Promise<PassportVersion | undefined> {
  const [row] = await em.execute<VersionRow[]>(
    `select number, sha256, public_sha256, created_at, content from passport_versions
     where passport_id = ? and number = ?`,
    [passportId, number],
  );
  return row ? fromRow(row) : undefined;
}

/** The version that was current at `at` (the latest created at or before it). */
export async function passportVersionAt(
  em: EntityManager,
  passportId: number,
  at: Date,
): Promise<PassportVersion | undefined> {
  const [row] = await em.execute<VersionRow[]>(
    `select number, sha256, public_sha256, created_at, content from passport_versions
     where passport_id = ? and created_at <= ? order by number desc limit 1`,
    [passportId, at],
  );
  return row ? fromRow(row) : undefined;
}

/** A page of a passport's versions without their content, ascending by number, after `after`. */
export async function passportVersionSummaries(
  em: EntityManager,
  passportId: number,
  page: { limit: number; after?: number | undefined },
): Promise<{ items: Omit<PassportVersion, 'content'>[]; nextCursor: string | null }> {
  const rows = await em.execute<Omit<VersionRow, 'content'>[]>(
    `select number, sha256, public_sha256, created_at from passport_versions
     where passport_id = ? and number > ? order by number limit ?`,
    [passportId, page.after ?? 0, page.limit + 1],
  );
  const items = rows.slice(0, page.limit).map((row) => ({
    number: row.number,
    sha256: row.sha256,
    publicSha256: row.public_sha256,
    createdAt: pgTimestamp(row.created_at),
  }));
  return {
    items,
    nextCursor: rows.length > page.limit ? String(items[items.length - 1]!.number) : null,
  };
}

/** Whether `facts` built as of `latest`'s time is exactly `latest` (so nothing published changed since). */
function unchangedSince(
  facts: PassportContentFacts,
  publicBaseUrl: string,
  latest: PassportVersion,
): boolean {
  return documentSha256(passportDocument(facts, publicBaseUrl, latest.createdAt)) === latest.sha256;
}

/**
 * The version `facts` make after `latest` (the first one without it): its document as of now (never before the
 * latest version, even if this clock is behind the one that wrote it), numbered next, with both hashes.
 */
export function nextPassportVersion(
  facts: PassportContentFacts,
  publicBaseUrl: string,
  latest: Pick<PassportVersion, 'number' | 'createdAt'> | undefined,
): PassportVersion {
  const now = new Date(Math.max(Date.now(), (latest?.createdAt.getTime() ?? 0) + 1));
  const content = passportDocument(facts, publicBaseUrl, now);
  return {
    number: (latest?.number ?? 0) + 1,
    sha256: documentSha256(content),
    publicSha256: documentSha256(publicPart(content)),
    createdAt: now,
    content,
  };
}

/**
 * Records the passport's current content as a new version when it differs from the latest one (idempotent:
 * calling it again, or after a write that changed nothing published, adds nothing). Call it inside the
 * transaction of the write that changed the content, after the write: it locks the passport row, so two
 * writers of one passport get consecutive numbers (and `unique (passport_id, number)` backs that up). The
 * version's time is now (its header's `lastUpdated`); its hashes are over the document with that time in it.
 * Answers the latest version (new or not); undefined only if there is no such passport. (A mint writes its
 * passport's first version in its own insert statement: src/lifecycle/mint/record-mint.ts.)
 */
export async function recordPassportVersion(
  em: EntityManager,
  passportId: number,
  publicBaseUrl: string,
): Promise<PassportVersion | undefined> {
  const facts = await loadPassportContent(em, passportId, { lock: true });
  if (!facts) return undefined;
  const latest = await latestPassportVersion(em, passportId);
  if (latest && unchangedSince(facts, publicBaseUrl, latest)) return latest;
  const version = nextPassportVersion(facts, publicBaseUrl, latest);
  await em.execute(
    `insert into passport_versions (company_id, environment, passport_id, number, sha256, public_sha256, content,
       created_at)
     values (?, ?, ?, ?, ?, ?, ?::jsonb, ?)`,
    [
      facts.companyId,
      facts.environment,
      passportId,
      version.number,
      version.sha256,
      version.publicSha256,
      JSON.stringify(version.content),
      version.createdAt,
    ],
  );
  return version;
}

/**
 * The passport's current version for a read: the latest stored one if the content is unchanged since (one
 * comparison, no write), else a new version recorded in its own transaction (a passport minted before versions
 * existed, or a header setting changed since its last write).
 */
export async function currentPassportVersion(
  em: EntityManager,
  passportId: number,
  publicBaseUrl: string,
): Promise<PassportVersion | undefined> {
  const [facts, latest] = await Promise.all([
    loadPassportContent(em, passportId),
    latestPassportVersion(em, passportId),
  ]);
  if (!facts) return undefined;
  if (latest && unchangedSince(facts, publicBaseUrl, latest)) return latest;
  return em.transactional((tx) => recordPassportVersion(tx, passportId, publicBaseUrl));
}
