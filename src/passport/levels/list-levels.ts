import type { EntityManager } from '@mikro-orm/postgresql';
import type { Environment } from '../../platform/config/config.ts';
import { LEVEL_COLUMNS, type LevelPassport, type LevelRow, toLevel } from './levels.ts';

export const LEVEL_LIST_MAX = 100;

export interface LevelSearch {
  granularity?: 'model' | 'batch';
  /** Normalised to 14 digits. */
  gtin?: string;
  limit: number;
  /** The previous page's last id (keyset paging, newest first). */
  after?: number;
}

const qualified = LEVEL_COLUMNS.split(', ')
  .map((column) => `l.${column}`)
  .join(', ');

/**
 * The company's model and batch passports of an environment, newest first, a keyset page at a time (the index of
 * Migration20261128300000). Raw SQL bypasses the ORM's tenant filter: company and environment are explicit.
 */
export async function listLevels(
  em: EntityManager,
  scope: { companyId: string; environment: Environment },
  search: LevelSearch,
): Promise<{ levels: LevelPassport[]; nextCursor: string | null }> {
  const where = ['l.company_id = ?', 'l.environment = ?'];
  const params: unknown[] = [scope.companyId, scope.environment];
  if (search.granularity !== undefined) {
    where.push('l.granularity = ?');
    params.push(search.granularity);
  }
  if (search.gtin !== undefined) {
    where.push('l.gtin = ?');
    params.push(search.gtin);
  }
  if (search.after !== undefined) {
    where.push('l.id < ?');
    params.push(search.after);
  }
  params.push(search.limit + 1);
  const rows = await em.execute<LevelRow[]>(
    `select ${qualified} from dpp_levels l where ${where.join(' and ')} order by l.id desc limit ?`,
    params,
  );
  const page = rows.slice(0, search.limit).map(toLevel);
  return {
    levels: page,
    nextCursor: rows.length > search.limit ? String(page.at(-1)!.id) : null,
  };
}
