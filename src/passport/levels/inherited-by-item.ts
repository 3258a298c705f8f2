import type { EntityManager } from '@mikro-orm/postgresql';
import { ITEM_LEVELS_JOIN } from '../content/inherited-layers.ts';
import { dppIdOf } from '../record/passport-header.ts';
import type { InheritedSection } from './inherit.ts';

/**
 * What each of these items inherits of one product group (as {@link inheritedSections} answers for one item,
 * most general level first), in one statement: for reads over a page of items (the AAS API's listings).
 */
export async function inheritedSectionsOfItems(
  em: EntityManager,
  passportIds: readonly number[],
  group: string,
): Promise<Map<number, InheritedSection[]>> {
  const byItem = new Map<number, InheritedSection[]>();
  if (passportIds.length === 0) return byItem;
  const rows = await em.getConnection().execute<
    {
      passport_id: number | string;
      service_uid: string;
      specification_id: string;
      data: Record<string, unknown>;
    }[]
  >(
    `select p.id as passport_id, l.service_uid, c.specification_id, c.data from passports p ${ITEM_LEVELS_JOIN}
     join dpp_level_content c on c.level_id = l.id and c.spec_group = ?
     where p.id in (${passportIds.map(() => '?').join(', ')})
     order by p.id, l.granularity desc`,
    [group, ...passportIds],
  );
  for (const row of rows) {
    const id = Number(row.passport_id);
    const sections = byItem.get(id) ?? [];
    sections.push({
      dppId: dppIdOf(row.service_uid),
      specificationId: row.specification_id,
      group,
      data: row.data,
    });
    byItem.set(id, sections);
  }
  return byItem;
}
