import { parseSpecificationId } from '../content/content-specification.ts';
import { ITEM_LEVELS_JOIN } from '../content/inherited-layers.ts';
import { escapePointer } from '../content/merge-layers.ts';
import type { ProductGroupEntry } from '../content/pinned-sql.ts';
import { dppIdOf } from '../record/passport-header.ts';
import { type InheritedSection, mergeSection } from './inherit.ts';

/** A model or batch passport an item inherits from, with its product-group sections. */
export interface ItemLevel {
  granularity: 'model' | 'batch';
  serviceUid: string;
  gtin: string;
  lot: string | null;
  sections: { specificationId: string; group: string; data: Record<string, unknown> }[];
}

/**
 * An item's levels (the passports row `p` of the statement) as one JSON array, most general first, each with its
 * sections: a correlated subquery on the levels' unique key, so a read that selects it stays one statement.
 * `(values (1))` only gives ITEM_LEVELS_JOIN (the one definition of how an item finds its levels) a left side.
 */
export const ITEM_LEVELS_SQL = `coalesce((select jsonb_agg(jsonb_build_object('granularity', l.granularity,
    'serviceUid', l.service_uid, 'gtin', l.gtin, 'lot', l.lot,
    'sections', coalesce((select jsonb_agg(jsonb_build_object('specificationId', lc.specification_id,
        'group', lc.spec_group, 'data', lc.data) order by lc.spec_group)
      from dpp_level_content lc where lc.level_id = l.id), '[]'::jsonb)) order by l.granularity desc)
  from (values (1)) as one (x) ${ITEM_LEVELS_JOIN}), '[]'::jsonb)`;

/**
 * The item's levels and each one's latest version number, as text: part of the inputs stamp of a stored
 * credential (a level created later, or a new version of one, makes the stamp differ).
 */
export const ITEM_LEVELS_STAMP_SQL = `(select string_agg(concat(l.service_uid, ':',
    (select max(v.number) from dpp_level_versions v where v.level_id = l.id)), ',' order by l.granularity desc)
  from (values (1)) as one (x) ${ITEM_LEVELS_JOIN})`;

/** The column of {@link ITEM_LEVELS_SQL} read back (parsed jsonb, or its text). */
export function itemLevelsOf(value: unknown): ItemLevel[] {
  const parsed = typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
  return Array.isArray(parsed) ? (parsed as ItemLevel[]) : [];
}

/** What the item inherits, as the merge takes it (most general level first). */
function sectionsOfLevels(levels: readonly ItemLevel[]): InheritedSection[] {
  return levels.flatMap((level) =>
    level.sections.map((section) => ({ dppId: dppIdOf(level.serviceUid), ...section })),
  );
}

/**
 * An item's product-group data merged over its levels' (model ← batch ← item, the one merge), one entry per
 * group in group order, and where each leaf comes from keyed by `/{specificationId}/…` (RFC 6901, as the EN 18222
 * document's `contentSources`); sources undefined when the item has no level (its data as stored).
 */
export function mergedProductGroupData(
  itemDppId: string,
  own: readonly ProductGroupEntry[],
  levels: readonly ItemLevel[],
): { entries: ProductGroupEntry[]; sources: Record<string, string> | undefined } {
  if (levels.length === 0) return { entries: [...own], sources: undefined };
  const inherited = sectionsOfLevels(levels);
  const ownByGroup = new Map(
    own.map((entry) => [parseSpecificationId(entry.specificationId)?.group ?? entry.specificationId, entry]),
  );
  const groups = [...new Set([...ownByGroup.keys(), ...inherited.map((section) => section.group)])].sort();
  const entries: ProductGroupEntry[] = [];
  const sources: Record<string, string> = {};
  for (const group of groups) {
    const entry = ownByGroup.get(group);
    const merged = mergeSection(group, inherited, entry && { dppId: itemDppId, ...entry });
    if (!merged) continue;
    entries.push({ specificationId: merged.specificationId, data: merged.data });
    const prefix = `/${escapePointer(merged.specificationId)}`;
    for (const [pointer, from] of Object.entries(merged.sources)) sources[`${prefix}${pointer}`] = from;
  }
  return { entries, sources };
}
