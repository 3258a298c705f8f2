import type { ItemKey } from '../../../src/passport/views/item-key.ts';
import type { Environment } from '../../../src/platform/config/config.ts';
import { type GtinKey, gtinKeyPath } from '../../../src/standards/gs1/digital-link-path.ts';
import { Problem } from '../../problem.ts';

/** The passport a well-formed Digital Link reaches: the level that holds a record, or none. */
export type NearestPassport =
  | { level: 'item'; item: ItemKey }
  | { level: 'none'; asked: 'model' | 'batch' | 'variant' };

/**
 * The one place the resolver decides which passport a well-formed GTIN Digital Link reaches (GS1-Conformant
 * Resolver: walk up from the most specific key to the primary key until a level has a record). The serial
 * identifies an item under its GTIN whatever lot or variant the carrier also prints, so a link with AI 21 reaches
 * the item passport (whose existence the representation checks). Without a serial the link asks for a variant,
 * batch or model: no passport of those levels exists yet, so it reaches none. Model and batch passports
 * (issue 34) plug in here: look up `/01/{gtin}/10/{lot}`, then `/01/{gtin}`, and return the first found.
 */
export async function findNearestPassport(_environment: Environment, key: GtinKey): Promise<NearestPassport> {
  if (key.serial !== undefined) return { level: 'item', item: { gtin: key.gtin, serial: key.serial } };
  return {
    level: 'none',
    asked: key.lot !== undefined ? 'batch' : key.cpv !== undefined ? 'variant' : 'model',
  };
}

/**
 * 404 for a well-formed link with nothing behind it, saying what the resolver holds under the GTIN: item
 * passports, each at its own address with the serial the product carries.
 */
export function noPassportAtLevel(
  key: GtinKey,
  nearest: Extract<NearestPassport, { level: 'none' }>,
  resolverBase: string,
): Problem {
  const item = `${resolverBase}${gtinKeyPath({ gtin: key.gtin })}/21/{serial}`;
  return new Problem(
    404,
    'passport_not_found',
    `No ${nearest.asked} passport for GTIN ${key.gtin}: this resolver holds item passports, each at ` +
      `${item} with the serial printed on the product.`,
    { extra: { level: nearest.asked, itemAddressTemplate: item } },
  );
}
