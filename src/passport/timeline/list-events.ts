import type { EntityManager } from '@mikro-orm/postgresql';
import { SupplyChainEvent } from '../../platform/db/entities/index.ts';
import { eventView, type SupplyChainEventView } from './event-view.ts';

/** The company's events (optionally of one token) in ascending id order, paged by id. */
export async function listSupplyChainEvents(
  em: EntityManager,
  page: { tokenId?: string | undefined; limit: number; after?: number | undefined },
): Promise<{ items: SupplyChainEventView[]; nextCursor: string | null }> {
  const rows = await em.find(
    SupplyChainEvent,
    {
      ...(page.tokenId === undefined ? {} : { tokenId: page.tokenId }),
      ...(page.after === undefined ? {} : { id: { $gt: page.after } }),
    },
    { orderBy: { id: 'asc' }, limit: page.limit + 1 },
  );
  const items = rows.slice(0, page.limit);
  return {
    items: items.map(eventView),
    nextCursor: rows.length > page.limit ? String(items[items.length - 1]!.id) : null,
  };
}

/** Every event of one token, ascending id: the input of the chain of custody. */
export async function tokenEvents(em: EntityManager, tokenId: string): Promise<SupplyChainEventView[]> {
  const rows = await em.find(SupplyChainEvent, { tokenId }, { orderBy: { id: 'asc' } });
  return rows.map(eventView);
}
