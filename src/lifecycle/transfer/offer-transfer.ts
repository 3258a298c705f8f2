import type { EntityManager } from '@mikro-orm/postgresql';
import type { Environment } from '../../platform/config/config.ts';
import { DomainError } from '../../platform/errors.ts';
import { recordEvent } from '../../webhooks/outbox.ts';
import { findTransfer, notOpen, type Transfer } from './transfers.ts';

type Scope = { companyId: string; environment: Environment };

export const DEFAULT_OFFER_DAYS = 14;
export const MAX_OFFER_DAYS = 90;

function uidOf(dppId: string): string | undefined {
  const match = /^(?:urn:uuid:)?([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i.exec(dppId);
  return match?.[1]?.toLowerCase();
}

/** The webhook payload both parties' events carry. */
export function transferData(transfer: Transfer): Record<string, unknown> {
  return {
    transferId: transfer.id,
    dppId: transfer.dppId,
    tokenId: transfer.tokenId,
    fromCompanyId: transfer.fromCompanyId,
    toCompanyId: transfer.toCompanyId,
    status: transfer.status,
    expiresAt: transfer.expiresAt.toISOString(),
  };
}

/**
 * The passport's company offers its responsibility for the passport to another company (EN 18239): an open
 * offer until the receiver accepts or declines it, the offerer withdraws it, or it expires. One open offer per
 * passport (409 transfer_already_offered). The receiver is told (webhook passport.transfer_offered).
 */
export async function offerTransfer(
  em: EntityManager,
  scope: Scope,
  request: {
    dppId: string;
    toCompanyId: string;
    expiresInDays?: number | undefined;
    note?: string | undefined;
  },
): Promise<Transfer> {
  if (request.toCompanyId === scope.companyId) {
    throw new DomainError('invalid', 'transfer_to_self', 'Your company is this passport’s operator already.');
  }
  const uid = uidOf(request.dppId);
  return em.fork().transactional(async (tx) => {
    const [passport] = uid
      ? await tx.execute<{ id: number; status: string; dpp_status: string | null }[]>(
          `select id, status, dpp_status from passports
           where service_uid = ? and company_id = ? and environment = ? for update`,
          [uid, scope.companyId, scope.environment],
        )
      : [];
    if (!passport) {
      throw new DomainError('not_found', 'passport_not_found', `No passport ${request.dppId} of yours.`);
    }
    if (passport.status === 'RECYCLED' || passport.dpp_status === 'archived') {
      throw new DomainError(
        'conflict',
        'passport_closed',
        'A recycled or archived passport is a closed record: its responsibility is not transferred.',
      );
    }
    const [receiver] = await tx.execute<{ id: string }[]>('select id from companies where id = ?', [
      request.toCompanyId,
    ]);
    if (!receiver) {
      throw new DomainError('not_found', 'company_not_found', `No company ${request.toCompanyId}.`);
    }
    await tx.execute(
      `update passport_transfers set status = 'expired', decided_at = expires_at
       where passport_id = ? and status = 'offered' and expires_at <= now()`,
      [passport.id],
    );
    const [open] = await tx.execute<{ id: string }[]>(
      `select id from passport_transfers where passport_id = ? and status = 'offered'`,
      [passport.id],
    );
    if (open) {
      throw new DomainError(
        'conflict',
        'transfer_already_offered',
        `Transfer ${open.id} of this passport is open: withdraw it first.`,
      );
    }
    const days = request.expiresInDays ?? DEFAULT_OFFER_DAYS;
    const [created] = await tx.execute<{ id: string }[]>(
      `insert into passport_transfers (environment, passport_id, from_company_id, to_company_id, note, expires_at)
       values (?, ?, ?, ?, ?, now() + make_interval(days => ?)) returning id`,
      [scope.environment, passport.id, scope.companyId, request.toCompanyId, request.note ?? null, days],
    );
    const transfer = await findTransfer(tx, scope, created!.id);
    recordEvent(
      tx,
      { companyId: transfer.toCompanyId, environment: scope.environment },
      'passport.transfer_offered',
      transferData(transfer),
    );
    await tx.flush();
    return transfer;
  });
}

/**
 * The receiver declines, or the offerer withdraws, an open offer. Only that party may (403 otherwise); an offer
 * no longer open → 409 transfer_not_open (of an accept and a withdrawal at the same moment, one wins). The
 * other party is told.
 */
export async function closeTransfer(
  em: EntityManager,
  scope: Scope,
  id: string,
  action: 'decline' | 'withdraw',
): Promise<Transfer> {
  return em.fork().transactional(async (tx) => {
    const transfer = await findTransfer(tx, scope, id, { lock: true });
    const party = action === 'decline' ? transfer.toCompanyId : transfer.fromCompanyId;
    if (party !== scope.companyId) {
      throw new DomainError(
        'forbidden',
        'not_your_decision',
        action === 'decline'
          ? 'Only the receiving company declines an offer; the offering company withdraws it.'
          : 'Only the offering company withdraws an offer; the receiving company declines it.',
      );
    }
    if (transfer.status !== 'offered') throw notOpen(transfer);
    const status = action === 'decline' ? 'declined' : 'withdrawn';
    await tx.execute(`update passport_transfers set status = ?, decided_at = now() where id = ?`, [
      status,
      transfer.id,
    ]);
    const closed = await findTransfer(tx, scope, transfer.id);
    const other = action === 'decline' ? transfer.fromCompanyId : transfer.toCompanyId;
    recordEvent(
      tx,
      { companyId: other, environment: scope.environment },
      action === 'decline' ? 'passport.transfer_declined' : 'passport.transfer_withdrawn',
      transferData(closed),
    );
    await tx.flush();
    return closed;
  });
}
