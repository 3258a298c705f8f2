import { ITEM_LEVELS_JOIN } from '../content/inherited-layers.ts';

/** An item's model or batch passport as its EN 18223 header links it (`modelDppId`, `batchDppId`). */
export interface ItemLevelRef {
  granularity: 'model' | 'batch';
  serviceUid: string;
}

/**
 * The model and batch passports of the item `p` of the statement (found by key, docs/granularity.md), as a JSON
 * array, most general first: a correlated subquery on the levels' unique key, so the statement stays one.
 * `(values (1))` only gives ITEM_LEVELS_JOIN (the one definition of how an item finds its levels) a left side.
 */
export const ITEM_LEVEL_REFS_SQL = `coalesce((select jsonb_agg(jsonb_build_object('granularity', l.granularity,
    'serviceUid', l.service_uid) order by l.granularity desc)
  from (values (1)) as one (x) ${ITEM_LEVELS_JOIN}), '[]'::jsonb)`;

/** The column of {@link ITEM_LEVEL_REFS_SQL} read back (parsed jsonb, or its text). */
export function itemLevelRefs(value: unknown): ItemLevelRef[] {
  const parsed = typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
  return Array.isArray(parsed) ? (parsed as ItemLevelRef[]) : [];
}
