import type { EntityManager } from '@mikro-orm/postgresql';
import type { TenantScope } from '../platform/db/tenant-scope.ts';

export interface InventoryItem {
  tokenId: string | null;
  chipUid: string;
  productId: string | null;
  material: string | null;
  status: string;
}

/** Most items one inventory answer carries; a larger inventory continues with `nextCursor`. */
export const INVENTORY_MAX_ITEMS = 10_000;

// One statement for the page: the page of chips first (the company's chips after the cursor, in id order, up
// to the limit: an index range read that stops at the limit), then each chip's passport (if minted) and the
// twin bound to it (if any). A chip has at most one of each (unique per environment and chip), so joining after
// the limit answers the same rows as joining before it, without letting the planner walk the company's
// passports to find the cursor (issue 26: a merge join read every passport before the middle page).
// Raw SQL bypasses the ORM's tenant filter, hence the explicit company and environment on every table.
export const INVENTORY_PAGE = `
  select c.id, c.chip_uid, c.product_id, c.status as chip_status,
    p.token_id, p.material, p.status as passport_status, t.material_number
  from (
    select id, company_id, environment, chip_uid, product_id, status
    from chips
    where company_id = ? and environment = ? and id > ?
    order by id
    limit ?
  ) c
  left join passports p
    on p.company_id = c.company_id and p.environment = c.environment and p.chip_id = c.id
  left join asset_twins t
    on t.company_id = c.company_id and t.environment = c.environment and t.chip_uid = c.chip_uid
  order by c.id`;

interface InventoryRow {
  id: number;
  chip_uid: string;
  product_id: string | null;
  chip_status: string;
  token_id: string | null;
  material: string | null;
  passport_status: string | null;
  material_number: string | null;
}

/**
 * The company's chips in enrollment order, with their passport where one is minted (`tokenId` null
 * otherwise) and the status the passport, else the chip, has. Up to `limit` items, then `nextCursor` (pass
 * it as `after`).
 */
export async function listInventory(
  em: EntityManager,
  scope: TenantScope,
  page: { limit: number; after?: number | undefined },
): Promise<{ items: InventoryItem[]; nextCursor: string | null }> {
  const rows = await em.execute<InventoryRow[]>(INVENTORY_PAGE, [
    scope.companyId,
    scope.environment,
    page.after ?? 0,
    page.limit + 1,
  ]);
  const more = rows.length > page.limit;
  const pageRows = rows.slice(0, page.limit);
  return {
    items: pageRows.map((row) => ({
      tokenId: row.token_id,
      chipUid: row.chip_uid,
      productId: row.product_id,
      material: row.material ?? row.material_number,
      status: row.passport_status ?? row.chip_status,
    })),
    nextCursor: more ? String(pageRows.at(-1)!.id) : null,
  };
}
