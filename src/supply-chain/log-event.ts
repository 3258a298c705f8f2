import type { EntityManager } from '@mikro-orm/postgresql';
import { Passport, SupplyChainEvent } from '../db/entities/index.ts';
import { ownedBy, type TenantScope } from '../db/tenant-scope.ts';
import { DomainError } from '../errors.ts';
import type { LoggableAction } from './actions.ts';
import { eventDataHash, eventView } from './event-view.ts';

export interface LogEventRequest {
  tokenId: string;
  action: LoggableAction;
  locationName: string;
  latitude: number;
  longitude: number;
  metadata: Record<string, unknown>;
  actorEmail?: string | undefined;
}

/** The passport of `tokenId` in the caller's company and environment, or 404. */
export async function findPassport(em: EntityManager, tokenId: string): Promise<Passport> {
  const passport = await em.findOne(Passport, { tokenId });
  if (!passport)
    throw new DomainError('not_found', 'token_not_found', `No passport with token id ${tokenId}.`);
  return passport;
}

/**
 * Stores a supply-chain event at once, unanchored, with its data hash (which covers its id, so the row is
 * flushed first). Anchoring on chain and the webhook follow in the anchor workflow.
 */
export async function logSupplyChainEvent(
  em: EntityManager,
  scope: TenantScope,
  actor: string,
  request: LogEventRequest,
): Promise<SupplyChainEvent> {
  return em.transactional(async (tx) => {
    const passport = await findPassport(tx, request.tokenId);
    if (passport.status === 'RECYCLED') {
      throw new DomainError(
        'conflict',
        'token_recycled',
        `Token ${request.tokenId} is recycled; no further events can be logged.`,
      );
    }
    const event = tx.create(SupplyChainEvent, {
      ...ownedBy(scope),
      tokenId: passport.tokenId,
      action: request.action,
      actor,
      actorEmail: request.actorEmail ?? null,
      locationName: request.locationName,
      latitude: request.latitude,
      longitude: request.longitude,
      metadata: request.metadata,
      dataHash: null,
      transactionHash: null,
      blockNumber: null,
      contractAddress: null,
      timestamp: new Date(),
    });
    await tx.flush();
    event.dataHash = eventDataHash(eventView(event));
    await tx.flush();
    return event;
  });
}
