import type { EntityManager } from '@mikro-orm/postgresql';
import { dppIdOf } from '../record/passport-header.ts';
import { type InheritedSection, inheritedSections, mergeSection } from './inherit.ts';

type Data = Record<string, unknown>;

/** One product group of an item as its machine representations state it (before disclosure). */
export interface ItemSection {
  group: string;
  specificationId: string;
  data: Data;
  /** Where each leaf comes from (RFC 6901 pointer into `data` → dppId); undefined when nothing is inherited. */
  sources: Record<string, string> | undefined;
}

interface OwnRow {
  service_uid: string;
  spec_group: string | null;
  specification_id: string | null;
  data: Data | null;
}

/**
 * Every product group of an item merged over its model's and batch's (docs/granularity.md, the one merge:
 * mergeSection), in group order: what the credentials and the AAS forms of an item carry. Without levels, the
 * item's own sections as stored.
 */
export async function itemSections(
  em: EntityManager,
  passportId: number,
  inherited?: readonly InheritedSection[],
): Promise<ItemSection[]> {
  const [rows, levels] = await Promise.all([
    em.getConnection().execute<OwnRow[]>(
      `select p.service_uid, pc.spec_group, pc.specification_id, pc.data
         from passports p left join passport_content pc on pc.passport_id = p.id
        where p.id = ? order by pc.spec_group`,
      [passportId],
    ),
    inherited ? Promise.resolve(inherited) : inheritedSections(em, passportId),
  ]);
  const own = rows.filter((row) => row.spec_group !== null);
  if (levels.length === 0) {
    return own.map((row) => ({
      group: row.spec_group!,
      specificationId: row.specification_id!,
      data: row.data!,
      sources: undefined,
    }));
  }
  const dppId = rows[0] ? dppIdOf(rows[0].service_uid) : '';
  const groups = [...new Set([...own.map((row) => row.spec_group!), ...levels.map((s) => s.group)])].sort();
  return groups.flatMap((group) => {
    const row = own.find((candidate) => candidate.spec_group === group);
    const merged = mergeSection(
      group,
      levels,
      row ? { dppId, specificationId: row.specification_id!, data: row.data! } : undefined,
    );
    return merged ? [{ group, ...merged }] : [];
  });
}
