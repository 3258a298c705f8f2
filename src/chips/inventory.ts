import type { EntityManager } from '@mikro-orm/postgresql';
import { Chip, Passport } from '../db/entities/index.ts';

export interface InventoryItem {
  tokenId: string | null;
  chipUid: string;
  productId: string | null;
  material: string | null;
  status: string;
}

/**
 * The company's chips in enrollment order, with their passport where one is minted (`tokenId` null
 * otherwise). Paged by chip id: pass the returned `nextCursor` as `after`.
 */
export async function listInventory(
  em: EntityManager,
  page: { limit: number; after?: number | undefined },
): Promise<{ items: InventoryItem[]; nextCursor: string | null }> {
  const chips = await em.find(Chip, page.after === undefined ? {} : { id: { $gt: page.after } }, {
    orderBy: { id: 'asc' },
    limit: page.limit + 1,
  });
  const more = chips.length > page.limit;
  const pageChips = chips.slice(0, page.limit);
  const passports = await em.find(Passport, { chipId: { $in: pageChips.map((c) => c.id) } });
  const byChip = new Map(passports.map((p) => [p.chipId, p]));
  return {
    items: pageChips.map((chip) => {
      const passport = byChip.get(chip.id);
      return {
        tokenId: passport?.tokenId ?? null,
        chipUid: chip.chipUid,
        productId: chip.productId ?? null,
        material: passport?.material ?? null,
        status: passport?.status ?? chip.status,
      };
    }),
    nextCursor: more ? String(pageChips[pageChips.length - 1]!.id) : null,
  };
}
