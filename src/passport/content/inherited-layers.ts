import type { EntityManager } from '@mikro-orm/postgresql';
import { type Layer, mergeLayers } from './merge-layers.ts';

/**
 * How an item finds its model and batch passports (docs/granularity.md), by key at read or write time: same
 * company, environment and GTIN; the batch also by the lot given at mint (custom_dpp_data.batch_number). SQL
 * joining `passports p` to `dpp_levels l`.
 */
export const ITEM_LEVELS_JOIN = `join dpp_levels l on l.environment = p.environment and l.gtin = p.gtin
  and l.company_id = p.company_id
  and coalesce(l.lot, '') in ('', coalesce(p.metadata_cache->'custom_dpp_data'->>'batch_number', ''))`;

/** The model's and batch's data of one specification version an item inherits, most general first. */
export async function inheritedLayers(
  em: EntityManager,
  passportId: number,
  specificationId: string,
): Promise<Layer[]> {
  const rows = await em.execute<{ service_uid: string; data: Record<string, unknown> }[]>(
    `select l.service_uid, c.data from passports p ${ITEM_LEVELS_JOIN}
     join dpp_level_content c on c.level_id = l.id and c.specification_id = ?
     where p.id = ? order by l.granularity desc`,
    [specificationId, passportId],
  );
  return rows.map((row) => ({ dppId: `urn:uuid:${row.service_uid}`, data: row.data }));
}

type Data = Record<string, unknown>;

/**
 * The data a write is validated and ruled on: the item's own data completed by what it inherits (an item under
 * a model writes only what differs). No layers, or data that is no object: the data itself.
 */
export function completedData(layers: readonly Layer[], data: unknown): unknown {
  if (layers.length === 0 || typeof data !== 'object' || data === null || Array.isArray(data)) return data;
  return mergeLayers([...layers, { dppId: '', data: data as Data }]).data;
}
