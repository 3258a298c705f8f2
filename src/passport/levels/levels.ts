import type { EntityManager } from '@mikro-orm/postgresql';
import type { Environment } from '../../platform/config/config.ts';
import { resolverBase } from '../../standards/gs1/digital-link.ts';
import { normalizeGtin } from '../../standards/gs1/gtin.ts';
import { ITEM_LEVELS_JOIN } from '../content/inherited-layers.ts';
import { DPP_SCHEMA_VERSION, type DppStatus, dppIdOf, serviceUidOfDppId } from '../record/passport-header.ts';

/** EN 18223 granularity of a passport: a product model, a batch (lot) of it, or one serialised item. */
export type Granularity = 'model' | 'batch' | 'item';

/** A model or batch passport (docs/granularity.md): no chip, no token; keyed by GTIN (and lot). */
export interface LevelPassport {
  id: number;
  companyId: string;
  environment: Environment;
  granularity: 'model' | 'batch';
  gtin: string;
  lot: string | null;
  serviceUid: string;
  dppStatus: DppStatus;
  /** Archived: kept at least until then (null: no end date, or not archived). */
  retainUntil: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface LevelRow {
  id: number;
  company_id: string;
  environment: Environment;
  granularity: 'model' | 'batch';
  gtin: string;
  lot: string | null;
  service_uid: string;
  dpp_status: DppStatus;
  retain_until: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

export const LEVEL_COLUMNS =
  'id, company_id, environment, granularity, gtin, lot, service_uid, dpp_status, retain_until, created_at, updated_at';

const date = (value: Date | string) => (value instanceof Date ? value : new Date(value));

export const toLevel = (row: LevelRow): LevelPassport => ({
  id: row.id,
  companyId: row.company_id,
  environment: row.environment,
  granularity: row.granularity,
  gtin: row.gtin,
  lot: row.lot,
  serviceUid: row.service_uid,
  dppStatus: row.dpp_status,
  retainUntil: row.retain_until === null ? null : date(row.retain_until),
  createdAt: date(row.created_at),
  updatedAt: date(row.updated_at),
});

/** The GS1 Digital Link of a model (`/01/{gtin}`) or batch (`/01/{gtin}/10/{lot}`) on our resolver. */
export function levelDigitalLink(
  publicBaseUrl: string,
  level: Pick<LevelPassport, 'environment' | 'gtin' | 'lot'>,
) {
  const model = `${resolverBase(publicBaseUrl, level.environment)}/01/${level.gtin}`;
  return level.lot === null ? model : `${model}/10/${encodeURIComponent(level.lot)}`;
}

/** The model or batch passport a dppId names in the environment; undefined when it names none (or no UUID). */
export async function findLevelById(
  em: EntityManager,
  environment: Environment,
  dppId: string,
): Promise<LevelPassport | undefined> {
  const serviceUid = serviceUidOfDppId(dppId);
  if (!serviceUid) return undefined;
  const [row] = await em.execute<LevelRow[]>(
    `select ${LEVEL_COLUMNS} from dpp_levels where service_uid = ? and environment = ?`,
    [serviceUid, environment],
  );
  return row ? toLevel(row) : undefined;
}

const LEVEL_PATH = /\/01\/(\d{8}|\d{12,14})(?:\/10\/([^/?#]+))?\/?$/;

/**
 * The model (`…/01/{gtin}`) or batch (`…/01/{gtin}/10/{lot}`) passport a GS1 Digital Link names, on any host (GS1
 * Digital Link makes the keys the identity); undefined for anything else or none.
 */
export async function findLevelByProductId(
  em: EntityManager,
  environment: Environment,
  productId: string,
): Promise<LevelPassport | undefined> {
  let url: URL;
  try {
    url = new URL(productId);
  } catch {
    return undefined;
  }
  const match = LEVEL_PATH.exec(url.pathname);
  if (!match || (url.protocol !== 'https:' && url.protocol !== 'http:')) return undefined;
  const gtin = normalizeGtin(match[1]!);
  let lot = '';
  try {
    lot = match[2] === undefined ? '' : decodeURIComponent(match[2]);
  } catch {
    return undefined;
  }
  if (!gtin) return undefined;
  const [row] = await em.execute<LevelRow[]>(
    `select ${LEVEL_COLUMNS} from dpp_levels where environment = ? and gtin = ? and coalesce(lot, '') = ?`,
    [environment, gtin, lot],
  );
  return row ? toLevel(row) : undefined;
}

/** A level's product-group data, one entry per pinned specification (in group order). */
export async function levelContent(
  em: EntityManager,
  levelIds: readonly number[],
): Promise<{ levelId: number; specificationId: string; group: string; data: Record<string, unknown> }[]> {
  if (levelIds.length === 0) return [];
  const rows = await em.execute<
    { level_id: number; specification_id: string; spec_group: string; data: Record<string, unknown> }[]
  >(
    `select level_id, specification_id, spec_group, data from dpp_level_content
     where level_id in (${levelIds.map(() => '?').join(', ')}) order by spec_group`,
    [...levelIds],
  );
  return rows.map((row) => ({
    levelId: row.level_id,
    specificationId: row.specification_id,
    group: row.spec_group,
    data: row.data,
  }));
}

/**
 * The model and batch passports an item inherits from, found by key at read time (so a model created after the
 * item applies): same company, environment and GTIN; the batch also by the lot given at mint
 * (custom_dpp_data.batch_number). Most general first. One indexed statement.
 */
export async function levelsOfItem(em: EntityManager, passportId: number): Promise<LevelPassport[]> {
  const rows = await em.execute<LevelRow[]>(
    `select ${LEVEL_COLUMNS.split(', ')
      .map((column) => `l.${column}`)
      .join(', ')}
     from passports p ${ITEM_LEVELS_JOIN}
     where p.id = ?
     order by l.granularity desc`,
    [passportId],
  );
  return rows.map(toLevel);
}

export interface LevelDocumentFacts {
  level: LevelPassport;
  economicOperatorId: string | null;
  facilityId: string | null;
  sections: { specificationId: string; data: Record<string, unknown> }[];
  lastUpdated: Date;
}

/** A model or batch passport's EN 18222 compressed document: the EN 18223 header, then its content sections. */
export function levelDocument(facts: LevelDocumentFacts, publicBaseUrl: string): Record<string, unknown> {
  const { level } = facts;
  const document: Record<string, unknown> = {
    digitalProductPassportId: dppIdOf(level.serviceUid),
    uniqueProductIdentifier: levelDigitalLink(publicBaseUrl, level),
    granularity: level.granularity,
    dppSchemaVersion: DPP_SCHEMA_VERSION,
    dppStatus: level.dppStatus,
    ...(level.retainUntil ? { retainUntil: level.retainUntil.toISOString() } : {}),
    lastUpdated: facts.lastUpdated.toISOString(),
    economicOperatorId: facts.economicOperatorId,
    facilityId: facts.facilityId,
    contentSpecificationIds: facts.sections.map((section) => section.specificationId),
  };
  for (const section of facts.sections) document[section.specificationId] = section.data;
  return document;
}

/**
 * The model (`lot` null) or batch passport of a key in the environment, whichever company holds it (one key is
 * one passport across companies); undefined when none. One statement on the level's unique key.
 */
export async function findLevelByKey(
  em: EntityManager,
  environment: Environment,
  gtin: string,
  lot: string | null,
): Promise<LevelPassport | undefined> {
  const [row] = await em.execute<LevelRow[]>(
    `select ${LEVEL_COLUMNS} from dpp_levels where environment = ? and gtin = ? and coalesce(lot, '') = ?`,
    [environment, gtin, lot ?? ''],
  );
  return row ? toLevel(row) : undefined;
}
