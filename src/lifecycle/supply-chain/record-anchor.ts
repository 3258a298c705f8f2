import type { EntityManager } from '@mikro-orm/postgresql';
import { Passport, SupplyChainEvent } from '../../platform/db/entities/index.ts';
import type { TenantScope } from '../../platform/db/tenant-scope.ts';
import { DomainError } from '../../platform/errors.ts';
import { recordEvent } from '../../webhooks/outbox.ts';
import { isSale, webhookForAction } from './actions.ts';

export interface EventAnchor {
  transactionHash: string;
  blockNumber: number;
  contractAddress: string;
}

export async function findEvent(em: EntityManager, eventId: number): Promise<SupplyChainEvent> {
  const event = await em.findOne(SupplyChainEvent, { id: eventId });
  if (!event) throw new DomainError('not_found', 'event_not_found', `No supply-chain event ${eventId}.`);
  return event;
}

/**
 * Stores the anchor on the event and, for actions that have one, queues its webhook in the same transaction
 * (so `data.transactionHash` is known). Repeating it changes nothing.
 */
export async function recordEventAnchor(
  em: EntityManager,
  scope: TenantScope,
  eventId: number,
  anchor: EventAnchor,
): Promise<SupplyChainEvent> {
  return em.transactional(async (tx) => {
    const event = await findEvent(tx, eventId);
    if (event.transactionHash) return event;
    event.transactionHash = anchor.transactionHash;
    event.blockNumber = anchor.blockNumber;
    event.contractAddress = anchor.contractAddress;
    const webhook = webhookForAction(event.action);
    if (webhook) {
      const data: Record<string, unknown> = {
        tokenId: event.tokenId,
        action: webhook.action,
        loggedAction: event.action,
        actor: event.actor,
        locationName: event.locationName,
        latitude: event.latitude,
        longitude: event.longitude,
        transactionHash: anchor.transactionHash,
      };
      if (isSale(event.action)) {
        // The warranty the (first) sale started when it was logged; null only for a passport never sold.
        const passport = await tx.findOne(
          Passport,
          { tokenId: event.tokenId },
          { fields: ['warrantyExpiry'] },
        );
        data.warrantyExpiry = passport?.warrantyExpiry?.toISOString() ?? null;
      }
      recordEvent(tx, scope, webhook.eventType, data, event.timestamp);
    }
    await tx.flush();
    return event;
  });
}
