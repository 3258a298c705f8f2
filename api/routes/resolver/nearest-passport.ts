import type { EntityManager } from '@mikro-orm/postgresql';
import { findLevelByKey, type LevelPassport } from '../../../src/passport/levels/levels.ts';
import type { ItemKey } from '../../../src/passport/views/item-key.ts';
import type { Environment } from '../../../src/platform/config/config.ts';
import { type GtinKey, gtinKeyPath } from '../../../src/standards/gs1/digital-link-path.ts';
import { Problem } from '../../problem.ts';

/** What a link without a serial asks for: a variant (AI 22, no lot), a batch (AI 10) or the model (AI 01). */
export type AskedLevel = 'model' | 'batch' | 'variant';

/** The passport a well-formed Digital Link reaches: the item, the nearest level that holds a record, or none. */
export type NearestPassport =
  | { level: 'item'; item: ItemKey }
  | { level: 'model' | 'batch'; passport: LevelPassport; asked: AskedLevel }
  | { level: 'none'; asked: AskedLevel };

/**
 * The one place the resolver decides which passport a well-formed GTIN Digital Link reaches (GS1-Conformant
 * Resolver: walk up from the most specific key to the primary key when the exact level has no record;
 * docs/public-passport.md "Walk-up"):
 * - a serial (AI 21) names the item under its GTIN, whatever lot or variant the carrier also prints; an unknown
 *   serial does not walk up (the representation answers 404): the serial is the key of a passport, and walking
 *   up would make any invented serial show the brand's model as if it were a genuine item;
 * - `/10/{lot}` (with or without `/22/{cpv}`): the batch passport (environment, GTIN, lot), else the model;
 * - `/01/{gtin}` and `/22/{cpv}`: the model (the service keeps no variant level, so a variant walks up to it).
 * Two indexed statements at most (the level key's unique index).
 */
export async function findNearestPassport(
  em: EntityManager,
  environment: Environment,
  key: GtinKey,
): Promise<NearestPassport> {
  if (key.serial !== undefined) return { level: 'item', item: { gtin: key.gtin, serial: key.serial } };
  const asked: AskedLevel = key.lot !== undefined ? 'batch' : key.cpv !== undefined ? 'variant' : 'model';
  if (key.lot !== undefined) {
    const batch = await findLevelByKey(em, environment, key.gtin, key.lot);
    if (batch) return { level: 'batch', passport: batch, asked };
  }
  const model = await findLevelByKey(em, environment, key.gtin, null);
  if (model) return { level: 'model', passport: model, asked };
  return { level: 'none', asked };
}

/**
 * 404 for a well-formed link with nothing behind it (no batch passport, and no model passport to walk up to),
 * saying what the resolver may hold under the GTIN: the item passports at the serial the product carries.
 */
export function noPassportAtLevel(
  key: GtinKey,
  nearest: Extract<NearestPassport, { level: 'none' }>,
  resolverBase: string,
): Problem {
  const item = `${resolverBase}${gtinKeyPath({ gtin: key.gtin })}/21/{serial}`;
  const what = nearest.asked === 'batch' ? 'batch or model' : 'model';
  return new Problem(
    404,
    'passport_not_found',
    `No ${what} passport for GTIN ${key.gtin}: item passports are each at ${item} with the serial printed on ` +
      'the product.',
    { extra: { level: nearest.asked, itemAddressTemplate: item } },
  );
}
