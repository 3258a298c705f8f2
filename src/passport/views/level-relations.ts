import { type LevelPassport, levelDigitalLink } from '../levels/levels.ts';

/**
 * Typed links between the levels of a product (docs/public-passport.md "Typed links"). GS1's Web Vocabulary has
 * no link type for "the batch or model this passport belongs to", and a linkset relation that is not registered
 * must be a URI (RFC 8288 §2.1.2) that GS1's linkset schema accepts (`https?://` with letters, digits, dots and
 * slashes). So:
 * - to the **model**: `https://schema.org/model` (schema.org Product → ProductModel: "the model of the product");
 * - to the **batch**: the IANA-registered `collection` (RFC 6573: the target is a collection the context is a
 *   member of: the item is one of its batch).
 */
export const MODEL_RELATION = 'https://schema.org/model';
export const BATCH_RELATION = 'collection';

/** The typed links from a passport to the levels above it (an item's batch and model, a batch's model). */
export function levelRelations(
  levels: readonly Pick<LevelPassport, 'environment' | 'gtin' | 'lot' | 'granularity'>[],
  publicBaseUrl: string,
): Record<string, { href: string; title: string }[]> {
  const relations: Record<string, { href: string; title: string }[]> = {};
  for (const level of levels) {
    const href = levelDigitalLink(publicBaseUrl, level);
    if (level.granularity === 'model') {
      relations[MODEL_RELATION] = [{ href, title: `Model passport of GTIN ${level.gtin}` }];
    } else {
      relations[BATCH_RELATION] = [{ href, title: `Batch passport of batch ${level.lot}` }];
    }
  }
  return relations;
}
