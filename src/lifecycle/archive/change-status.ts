import { type EntityManager, LockMode } from '@mikro-orm/postgresql';
import { recordPassportEvent } from '../../passport/content/product-data-change.ts';
import type { DppRef } from '../../passport/dpp-api/find-dpp.ts';
import { nextDppStatus, type StatusAction } from '../../passport/record/dpp-status-rule.ts';
import { type DppStatus, dppIdOf, dppStatus } from '../../passport/record/passport-header.ts';
import type { PassportVersion } from '../../passport/record/passport-versions.ts';
import { Passport, type SupplyChainEvent } from '../../platform/db/entities/index.ts';
import { DomainError } from '../../platform/errors.ts';
import { archiveRetention, type RetentionRule } from './retention.ts';

/** The supply-chain action of a status change: written by the service only, anchored like every event. */
export const DPP_STATUS_CHANGED = 'DPP_STATUS_CHANGED';

export interface StatusChange {
  from: DppStatus;
  to: DppStatus;
  action: StatusAction;
  event: SupplyChainEvent;
  version: PassportVersion;
  /** Archived: the rule applied and the date it gives (null: no end date). */
  retention?: RetentionRule & { retainUntil: Date | null };
}

/**
 * Changes the status of the company's passport (EN 18222 status change; the rule: dpp-status-rule.ts), in one
 * transaction: the passport row locked, the change recorded on it (archived: with the retention the product rule
 * gives), a DPP_STATUS_CHANGED supply-chain event (metadata: from, to, action, reason, retainUntil) and a new
 * version. The caller starts the event's anchor once committed. A refused change (409) changes nothing.
 */
export async function changeDppStatus(
  em: EntityManager,
  ref: DppRef,
  request: { action: StatusAction; reason?: string | undefined; actor: string },
  publicBaseUrl: string,
): Promise<StatusChange> {
  return em.transactional(async (tx) => {
    const passport = await tx.findOne(
      Passport,
      { id: ref.passportId },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    if (!passport)
      throw new DomainError('not_found', 'dpp_not_found', `No passport ${dppIdOf(ref.serviceUid)}.`);
    const from = dppStatus(passport);
    const to = nextDppStatus({ dppStatus: from, revoked: passport.revokedAt != null }, request.action);
    if (to instanceof DomainError) throw to;
    const now = new Date();
    let retention: StatusChange['retention'];
    if (to === 'archived') {
      const groups = await tx.execute<{ spec_group: string }[]>(
        'select spec_group from passport_content where passport_id = ?',
        [passport.id],
      );
      retention = archiveRetention(
        groups.map((row) => row.spec_group),
        now,
      );
      passport.retainUntil = retention.retainUntil;
    }
    passport.dppStatus = to === 'active' ? null : to;
    passport.dppStatusReason = request.reason ?? null;
    passport.dppStatusChangedAt = now;
    await tx.flush();
    const { event, version } = await recordPassportEvent(
      tx,
      ref,
      {
        action: DPP_STATUS_CHANGED,
        actor: request.actor,
        metadata: {
          action: request.action,
          from,
          to,
          ...(request.reason ? { reason: request.reason } : {}),
          ...(retention
            ? { retentionRule: retention.rule, retainUntil: retention.retainUntil?.toISOString() ?? null }
            : {}),
        },
      },
      publicBaseUrl,
    );
    return { from, to, action: request.action, event, version, ...(retention ? { retention } : {}) };
  });
}
