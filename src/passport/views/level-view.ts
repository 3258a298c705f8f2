import type { EntityManager } from '@mikro-orm/postgresql';
import type { LevelFacts } from '../credentials/level-credentials.ts';
import { PUBLIC_ONLY } from '../disclosure/caller-roles.ts';
import { readLevelDpp } from '../dpp-api/read-dpp.ts';
import { findLevelByKey, type LevelPassport, levelDigitalLink } from '../levels/levels.ts';
import { PUBLIC_CONTEXT } from './public-view.ts';

type Data = Record<string, unknown>;

/** A model's or batch's document as anybody reads it (GET /v1/dpps/{dppId} without a credential). */
export interface PublicLevel {
  level: LevelPassport;
  /** The EN 18223 header members of the public document. */
  header: Data;
  /** Product-group data (content specification id → the public's fields), non-empty sections only. */
  sections: Record<string, Data>;
  /** Its product name, or one made of the GTIN (and manufacturer), with the batch's lot. */
  name: string;
  /** What `name` is made of: the data's product name (none: `name` was made up) and its manufacturer. */
  naming?: { product: string | null; manufacturer: string | null };
}

const NAME_FIELDS = ['productName', 'modelName', 'tradeName', 'name'];

/** The first non-empty string under one of `fields`, searched breadth first through nested objects. */
function firstString(data: Data, fields: readonly string[]): string | undefined {
  let level: Data[] = [data];
  for (let depth = 0; depth < 4 && level.length > 0; depth++) {
    for (const object of level) {
      for (const field of fields) {
        const found = object[field];
        if (typeof found === 'string' && found.trim() !== '') return found;
      }
    }
    level = level.flatMap((object) =>
      Object.values(object).filter(
        (value): value is Data => typeof value === 'object' && value !== null && !Array.isArray(value),
      ),
    );
  }
  return undefined;
}

/** The public part of a model or batch passport, cut as its anonymous EN 18222 read is. */
export async function publicLevel(em: EntityManager, level: LevelPassport): Promise<PublicLevel> {
  const reader = { owner: false, authenticated: false, roles: PUBLIC_ONLY.roles };
  const document = await readLevelDpp(em, level, reader, 'compressed');
  const ids = Array.isArray(document.contentSpecificationIds)
    ? (document.contentSpecificationIds as string[])
    : [];
  const header: Data = {};
  const sections: Record<string, Data> = {};
  for (const [key, value] of Object.entries(document)) {
    if (!ids.includes(key)) header[key] = value;
    else if (typeof value === 'object' && value !== null && Object.keys(value).length > 0) {
      sections[key] = value as Data;
    }
  }
  const manufacturer = firstString(sections, ['manufacturerName'])?.trim() ?? null;
  const named = firstString(sections, NAME_FIELDS) ?? null;
  const product =
    named ?? (manufacturer ? `Product ${level.gtin} (${manufacturer})` : `Product ${level.gtin}`);
  const name = level.lot === null ? product : `${product}, batch ${level.lot}`;
  return { level, header, sections, name, naming: { product: named, manufacturer } };
}

/**
 * format=public of a model or batch passport: the item's public shape where it applies (`@context`, `@type`,
 * `@id`, `name`, `gs1:gtin`, `status`, `dppHeader`, `productGroupData`), with `granularity`, the batch's
 * `batchNumber` and its `model` (Digital Link); no serial, chip or contract: a level has none.
 */
export function publicLevelDocument(view: PublicLevel, publicBaseUrl: string, model?: LevelPassport) {
  const { level } = view;
  return {
    '@context': {
      ...PUBLIC_CONTEXT,
      granularity: 'idpp:granularity',
      batchNumber: 'idpp:batchNumber',
      model: { '@id': 'schema:model', '@type': '@id' },
    },
    '@type': level.granularity === 'model' ? 'schema:ProductModel' : 'schema:SomeProducts',
    '@id': levelDigitalLink(publicBaseUrl, level),
    name: view.name,
    granularity: level.granularity,
    'gs1:gtin': level.gtin,
    ...(level.lot === null ? {} : { batchNumber: level.lot }),
    ...(model ? { model: levelDigitalLink(publicBaseUrl, model) } : {}),
    status: level.dppStatus.toUpperCase(),
    dppHeader: view.header,
    ...(Object.keys(view.sections).length > 0 ? { productGroupData: view.sections } : {}),
  };
}

/** The model passport a batch belongs to: the same company's model of its GTIN, if any. */
export async function modelOfBatch(
  em: EntityManager,
  level: LevelPassport,
): Promise<LevelPassport | undefined> {
  if (level.granularity !== 'batch') return undefined;
  const model = await findLevelByKey(em, level.environment, level.gtin, null);
  return model?.companyId === level.companyId ? model : undefined;
}

/** What a level's credentials and AAS state: its public view, a batch's model, its company's name. */
export async function levelFacts(em: EntityManager, level: LevelPassport): Promise<LevelFacts> {
  const [view, model, [company]] = await Promise.all([
    publicLevel(em, level),
    modelOfBatch(em, level),
    em.execute<{ name: string }[]>('select name from companies where id = ?', [level.companyId]),
  ]);
  return { view, model, companyName: company?.name ?? '' };
}
