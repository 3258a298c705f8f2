import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { SupplyChainEvent } from '../../platform/db/entities/index.ts';
import type { TenantScope } from '../../platform/db/tenant-scope.ts';
import { DomainError } from '../../platform/errors.ts';
import { canonicalJson } from '../../standards/ipfs/json.ts';
import type { DppRef } from '../dpp-api/find-dpp.ts';
import { writeRefusal } from '../record/dpp-status-rule.ts';
import { dppIdOf, dppStatus } from '../record/passport-header.ts';
import { type PassportVersion, recordPassportVersion } from '../record/passport-versions.ts';
import { eventDataHash, eventView } from '../timeline/event-view.ts';
import type { ContentWriter } from './content-writer.ts';

/**
 * The supply-chain action of a change of product-group data (PUT, dynamic data, repurposing): written by the
 * service only (never through POST /v1/iaas/log-event), anchored on chain by the anchor-event workflow like
 * every supply-chain event.
 */
export const PRODUCT_DATA_UPDATED = 'PRODUCT_DATA_UPDATED';

export interface ProductDataChange {
  passportScope: TenantScope;
  event: SupplyChainEvent;
  version: PassportVersion;
}

/** SHA-256 (hex) of the RFC 8785 form of product-group data: what the change's anchored event commits to. */
export function dataSha256(data: unknown): string {
  return createHash('sha256').update(canonicalJson(data), 'utf8').digest('hex');
}

/**
 * Locks the passport row of a content write (after its content row: every content writer takes them in this
 * order) and refuses a passport whose data no longer changes: 409 token_recycled, passport_revoked, dpp_suspended,
 * dpp_archived.
 */
export async function lockWritablePassport(tx: EntityManager, ref: DppRef): Promise<void> {
  const [passport] = await tx.execute<
    { status: string; revoked_at: Date | null; dpp_status: string | null }[]
  >('select status, revoked_at, dpp_status from passports where id = ? for update', [ref.passportId]);
  if (!passport)
    throw new DomainError('not_found', 'dpp_not_found', `No passport ${dppIdOf(ref.serviceUid)}.`);
  if (passport.status === 'RECYCLED') {
    throw new DomainError(
      'conflict',
      'token_recycled',
      'The passport is recycled; its data no longer changes.',
    );
  }
  if (passport.revoked_at) {
    throw new DomainError(
      'conflict',
      'passport_revoked',
      'The passport is revoked; its data no longer changes.',
    );
  }
  // Its company's own status changes (EN 18222): suspended and archived passports take no data writes.
  const refusal = writeRefusal(dppStatus({ ...passport, revokedAt: null, dppStatus: passport.dpp_status }));
  if (refusal) throw refusal;
}

/**
 * Records a change of a passport made by the service itself, in the caller's transaction after the change was
 * stored: a supply-chain event of the passport's company (`action`, `actor` the company that made it, `metadata`)
 * with its data hash, then the passport's new version (which lists the event). The caller starts the event's
 * anchor workflow once committed. Content changes (below) and status changes (src/lifecycle/archive) use it.
 */
export async function recordPassportEvent(
  tx: EntityManager,
  ref: DppRef,
  change: { action: string; actor: string; metadata: Record<string, unknown> },
  publicBaseUrl: string,
): Promise<ProductDataChange> {
  const passportScope: TenantScope = { companyId: ref.companyId, environment: ref.environment };
  const event = tx.create(SupplyChainEvent, {
    companyId: passportScope.companyId,
    environment: passportScope.environment,
    tokenId: ref.tokenId,
    action: change.action,
    actor: change.actor,
    actorEmail: null,
    locationName: null,
    latitude: null,
    longitude: null,
    metadata: change.metadata,
    dataHash: null,
    transactionHash: null,
    blockNumber: null,
    contractAddress: null,
    timestamp: new Date(),
  });
  await tx.flush();
  event.dataHash = eventDataHash(eventView(event));
  await tx.flush();
  const version = await recordPassportVersion(tx, ref.passportId, publicBaseUrl);
  if (!version)
    throw new DomainError('not_found', 'dpp_not_found', `No passport ${dppIdOf(ref.serviceUid)}.`);
  return { passportScope, event, version };
}

/**
 * Records a stored change of product-group data, in the caller's transaction after the data was written: a
 * PRODUCT_DATA_UPDATED supply-chain event of the passport's company (actor the writing company; metadata the
 * specification, the SHA-256 of the new data, the changed fields and who wrote them — no values), then the
 * passport's new version (which lists the event). The caller starts the event's anchor workflow once committed.
 */
export async function recordProductDataChange(
  tx: EntityManager,
  ref: DppRef,
  change: { specificationId: string; data: unknown; changed: string[] },
  writer: ContentWriter,
  publicBaseUrl: string,
): Promise<ProductDataChange> {
  return recordPassportEvent(
    tx,
    ref,
    {
      action: PRODUCT_DATA_UPDATED,
      actor: writer.companyName,
      metadata: {
        contentSpecificationId: change.specificationId,
        dataSha256: dataSha256(change.data),
        changedFields: change.changed,
        writerRole: writer.role,
        ...(writer.role === 'operator' ? {} : { writerCompanyId: writer.companyId }),
      },
    },
    publicBaseUrl,
  );
}
