import type { EntityManager } from '@mikro-orm/postgresql';
import { recordPassportEvent } from '../../passport/content/product-data-change.ts';
import type { PassportVersion } from '../../passport/record/passport-versions.ts';
import type { Environment } from '../../platform/config/config.ts';
import type { SupplyChainEvent } from '../../platform/db/entities/index.ts';
import { DomainError } from '../../platform/errors.ts';
import { recordEvent } from '../../webhooks/outbox.ts';
import { transferData } from './offer-transfer.ts';
import { findTransfer, notOpen, type Transfer } from './transfers.ts';

type Scope = { companyId: string; environment: Environment };

/** The event the passport's history records a transfer with (who: the receiver; when; from; to). */
export const OPERATOR_TRANSFERRED = 'OPERATOR_TRANSFERRED';

export interface Acceptance {
  transfer: Transfer;
  /** The version the transfer recorded. */
  version: PassportVersion;
  /** The history event (anchored on chain like every event, when workflows run). */
  event: SupplyChainEvent;
}

/**
 * The receiver accepts an open offer (EN 18239): in one transaction the passport, its versions, content, events
 * and chip become the receiver's (every write rule now applies to it; the offerer loses write access), the
 * history gets an OPERATOR_TRANSFERRED event (actor: the receiver; metadata: from, to, the transfer) and the
 * passport a new version; both companies are told (webhook passport.operator_transferred). The offer's row is
 * locked first, so of an acceptance and a withdrawal at the same moment one wins and the other gets 409.
 */
export async function acceptTransfer(
  em: EntityManager,
  scope: Scope,
  id: string,
  publicBaseUrl: string,
): Promise<Acceptance> {
  return em.fork().transactional(async (tx) => {
    const transfer = await findTransfer(tx, scope, id, { lock: true });
    if (transfer.toCompanyId !== scope.companyId) {
      throw new DomainError(
        'forbidden',
        'not_your_decision',
        'Only the receiving company accepts an offer; the offering company withdraws it.',
      );
    }
    if (transfer.status !== 'offered') throw notOpen(transfer);
    const [passport] = await tx.execute<{ company_id: string; chip_id: number; chip_uid: string }[]>(
      'select company_id, chip_id, chip_uid from passports where id = ? for update',
      [transfer.passportId],
    );
    if (passport?.company_id !== transfer.fromCompanyId) {
      throw new DomainError(
        'conflict',
        'transfer_not_open',
        'The passport changed operator since the offer.',
      );
    }
    await movePassport(tx, transfer, passport.chip_id, passport.chip_uid);
    const names = await tx.execute<{ id: string; name: string }[]>(
      'select id, name from companies where id in (?, ?)',
      [transfer.fromCompanyId, transfer.toCompanyId],
    );
    const name = (companyId: string) => names.find((c) => c.id === companyId)?.name ?? companyId;
    await tx.execute(`update passport_transfers set status = 'accepted', decided_at = now() where id = ?`, [
      transfer.id,
    ]);
    // The history event of the receiver (now the passport's company) and the passport's new version.
    const { event, version } = await recordPassportEvent(
      tx,
      {
        passportId: transfer.passportId,
        companyId: transfer.toCompanyId,
        environment: transfer.environment,
        tokenId: transfer.tokenId,
        serviceUid: transfer.dppId.replace(/^urn:uuid:/, ''),
      },
      {
        action: OPERATOR_TRANSFERRED,
        actor: name(transfer.toCompanyId),
        metadata: {
          transferId: transfer.id,
          from: { companyId: transfer.fromCompanyId, name: name(transfer.fromCompanyId) },
          to: { companyId: transfer.toCompanyId, name: name(transfer.toCompanyId) },
          offeredAt: transfer.offeredAt.toISOString(),
        },
      },
      publicBaseUrl,
    );
    const accepted = await findTransfer(tx, scope, transfer.id);
    for (const companyId of [transfer.fromCompanyId, transfer.toCompanyId]) {
      recordEvent(tx, { companyId, environment: transfer.environment }, 'passport.operator_transferred', {
        ...transferData(accepted),
        eventId: event.id,
        version: version.number,
      });
    }
    await tx.flush();
    return { transfer: accepted, version, event };
  });
}

/** Every row of the passport its operator owns moves to the receiver. */
async function movePassport(tx: EntityManager, transfer: Transfer, chipId: number, chipUid: string) {
  const to = transfer.toCompanyId;
  const from = transfer.fromCompanyId;
  const passportId = transfer.passportId;
  await tx.execute('update passports set company_id = ?, updated_at = now() where id = ?', [to, passportId]);
  for (const table of ['passport_versions', 'passport_content']) {
    await tx.execute(`update ${table} set company_id = ? where passport_id = ? and company_id = ?`, [
      to,
      passportId,
      from,
    ]);
  }
  await tx.execute(
    'update supply_chain_events set company_id = ? where environment = ? and token_id = ? and company_id = ?',
    [to, transfer.environment, transfer.tokenId, from],
  );
  await tx.execute('update chips set company_id = ? where id = ? and company_id = ?', [to, chipId, from]);
  await tx.execute(
    'update asset_twins set company_id = ? where environment = ? and chip_uid = ? and company_id = ?',
    [to, transfer.environment, chipUid, from],
  );
}
