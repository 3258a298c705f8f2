import type { EntityManager } from '@mikro-orm/postgresql';
import { readCompanySettings, warrantyEnd } from '../../accounts/settings/company-settings.ts';
import type { WorkflowGateway } from '../../adapters/temporal/start.ts';
import { writeRefusal } from '../../passport/record/dpp-status-rule.ts';
import { recordPassportVersion } from '../../passport/record/passport-versions.ts';
import { eventDataHash, eventView } from '../../passport/timeline/event-view.ts';
import { Company, Passport, SupplyChainEvent } from '../../platform/db/entities/index.ts';
import { ownedBy, type TenantScope } from '../../platform/db/tenant-scope.ts';
import { DomainError } from '../../platform/errors.ts';
import type { Logger } from '../../platform/logging/logger.ts';
import { isSale, type LoggableAction } from './actions.ts';
import { startAnchor } from './anchor-event.ts';

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

export interface LogSupplyChainEventDeps {
  /** Bound to the caller's company and environment. */
  em: EntityManager;
  workflows: WorkflowGateway;
  publicBaseUrl: string;
  log: Logger;
}

/**
 * POST /v1/iaas/log-event: stores the event at once, as logged by the caller's company, and starts its anchor
 * workflow. The event is committed before the start, so a start that fails is logged, not thrown (answering an
 * error would invite a duplicate): `anchorStarted` false, and POST /v1/iaas/events/{id}/anchor restarts it.
 */
export async function logSupplyChainEvent(
  deps: LogSupplyChainEventDeps,
  input: { scope: TenantScope; request: LogEventRequest },
): Promise<{ event: SupplyChainEvent; anchorStarted: boolean }> {
  const { scope } = input;
  const company = await deps.em.findOneOrFail(Company, { id: scope.companyId });
  const event = await storeSupplyChainEvent(deps.em, scope, company.name, input.request, deps.publicBaseUrl);
  try {
    await startAnchor(deps.workflows, scope, event);
    return { event, anchorStarted: true };
  } catch (error) {
    deps.log.error({ err: error, eventId: event.id }, 'anchor workflow not started');
    return { event, anchorStarted: false };
  }
}

/**
 * Stores a supply-chain event at once, unanchored, with its data hash (which covers its id, so the row is
 * flushed first). Anchoring on chain and the webhook follow in the anchor workflow. The first sale (SOLD or
 * INITIAL_SALE) of a passport starts its warranty in the same transaction: `warrantyExpiry` = the event's time
 * plus the company's `warrantyMonths` (default 24). Later sales and transfers leave a running warranty as it is.
 * The passport's new content version is recorded in the same transaction.
 */
export async function storeSupplyChainEvent(
  em: EntityManager,
  scope: TenantScope,
  actor: string,
  request: LogEventRequest,
  publicBaseUrl: string,
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
    // An archived passport is a closed record (EN 18222 archive): no event is added to it.
    if (passport.dppStatus === 'archived') throw writeRefusal('archived')!;
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
    if (isSale(event.action) && passport.warrantyExpiry === null) {
      const { warrantyMonths } = await readCompanySettings(tx, scope);
      // Conditional on "not started yet", so of two sales logged at once only the first starts it.
      await tx.nativeUpdate(
        Passport,
        { id: passport.id, warrantyExpiry: null },
        { warrantyExpiry: warrantyEnd(event.timestamp, warrantyMonths), updatedAt: new Date() },
      );
    }
    await tx.flush();
    await recordPassportVersion(tx, passport.id, publicBaseUrl);
    return event;
  });
}
