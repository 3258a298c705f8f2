import { randomUUID } from 'node:crypto';
import { type EntityManager, LockMode, UniqueConstraintViolationException } from '@mikro-orm/postgresql';
import { recordPassportVersion } from '../../passport/record/passport-versions.ts';
import { Passport, SupplyChainEvent } from '../../platform/db/entities/index.ts';
import { ownedBy } from '../../platform/db/tenant-scope.ts';
import { DomainError } from '../../platform/errors.ts';
import type { ResaleTerms } from '../../processes/resale-terms.ts';
import { recordEvent } from '../../webhooks/outbox.ts';
import { formatMinorUnits } from './money.ts';

export type ResaleStatus =
  | 'AUTHORIZING'
  | 'AWAITING_PAYMENT'
  | 'AWAITING_CLAIM'
  | 'CLAIMED'
  | 'EXPIRED'
  | 'CLAIM_EXPIRED'
  | 'FAILED';

export interface ResaleRow {
  id: string;
  token_id: string;
  status: ResaleStatus;
  amount: string;
  currency: string;
  buyer_wallet: string;
  seller_wallet: string;
  checkout_session_id: string | null;
  payment_intent_id: string | null;
}

// Raw statements bypass the ORM's tenant filter, so each names company and environment itself where it reads
// or writes a tenant's rows.

/**
 * The release's row, before its workflow starts. At most one resale of a token is open at a time (a partial
 * unique index): a second release while one is open is a 409.
 */
export async function insertResale(em: EntityManager, terms: ResaleTerms): Promise<void> {
  try {
    await em.execute(
      `insert into resales (id, company_id, environment, token_id, seller_kind, seller_ref, seller_wallet,
         buyer_email, buyer_wallet, amount, currency, status)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'AUTHORIZING')`,
      [
        terms.resaleId,
        terms.scope.companyId,
        terms.scope.environment,
        terms.tokenId,
        terms.seller.kind,
        terms.seller.kind === 'company' ? terms.seller.companyId : terms.seller.userId,
        terms.sellerWallet,
        terms.buyerEmail,
        terms.buyerWallet,
        terms.price.amount,
        terms.price.currency,
      ],
    );
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) {
      throw new DomainError(
        'conflict',
        'resale_in_progress',
        `Passport ${terms.tokenId} is already for sale.`,
      );
    }
    throw error;
  }
}

/** The resale a payment's metadata names, in the environment whose secret signed the event. */
export async function findResale(
  em: EntityManager,
  environment: string,
  resaleId: string,
): Promise<ResaleRow | undefined> {
  const [row] = await em.execute<ResaleRow[]>(
    `select id, token_id, status, amount, currency, buyer_wallet, seller_wallet, checkout_session_id,
       payment_intent_id
     from resales where environment = ? and id = ?`,
    [environment, resaleId],
  );
  return row;
}

/**
 * The resale a payment names, in the environment whose webhook secret verified the event, among those in the
 * given states: its token (token ids are per environment) and its buyer's wallet, as the spec's metadata
 * carries them, and the resale id when our checkout added it; the latest when several match. At most one
 * resale of a token is open at a time.
 */
export async function findResaleForPayment(
  em: EntityManager,
  environment: string,
  names: { tokenId: string; buyerWallet?: string | undefined; resaleId?: string | undefined },
  statuses: readonly ResaleStatus[] = OPEN_RESALE_STATUSES,
): Promise<(ResaleRow & { company_id: string }) | undefined> {
  const [row] = await em.execute<(ResaleRow & { company_id: string })[]>(
    `select id, company_id, token_id, status, amount, currency, buyer_wallet, seller_wallet, checkout_session_id,
       payment_intent_id
     from resales
     where environment = ? and token_id = ? and status in (${statuses.map(() => '?').join(', ')})
       and (?::text is null or lower(buyer_wallet) = lower(?::text))
       and (?::uuid is null or id = ?::uuid)
     order by created_at desc
     limit 1`,
    [
      environment,
      names.tokenId,
      ...statuses,
      names.buyerWallet ?? null,
      names.buyerWallet ?? null,
      names.resaleId ?? null,
      names.resaleId ?? null,
    ],
  );
  return row;
}

export const OPEN_RESALE_STATUSES: readonly ResaleStatus[] = [
  'AUTHORIZING',
  'AWAITING_PAYMENT',
  'AWAITING_CLAIM',
];
export const ENDED_RESALE_STATUSES: readonly ResaleStatus[] = [
  'CLAIMED',
  'EXPIRED',
  'CLAIM_EXPIRED',
  'FAILED',
];

/** The open (or latest) resale of a token of the company, for status reads. */
export async function latestResaleOfToken(
  em: EntityManager,
  scope: ResaleTerms['scope'],
  tokenId: string,
): Promise<ResaleRow | undefined> {
  const [row] = await em.execute<ResaleRow[]>(
    `select id, token_id, status, amount, currency, buyer_wallet, seller_wallet, checkout_session_id,
       payment_intent_id
     from resales where company_id = ? and environment = ? and token_id = ?
     order by created_at desc limit 1`,
    [scope.companyId, scope.environment, tokenId],
  );
  return row;
}

export async function updateResale(
  em: EntityManager,
  resaleId: string,
  patch: {
    status?: ResaleStatus;
    checkoutSessionId?: string;
    paymentIntentId?: string;
    authorizeTxHash?: string;
    buyerAuthorizeTxHash?: string;
    claimTxHash?: string;
  },
): Promise<void> {
  await em.execute(
    `update resales set status = coalesce(?, status), checkout_session_id = coalesce(?, checkout_session_id),
       payment_intent_id = coalesce(?, payment_intent_id), authorize_tx_hash = coalesce(?, authorize_tx_hash),
       buyer_authorize_tx_hash = coalesce(?, buyer_authorize_tx_hash), claim_tx_hash = coalesce(?, claim_tx_hash),
       updated_at = now()
     where id = ?`,
    [
      patch.status ?? null,
      patch.checkoutSessionId ?? null,
      patch.paymentIntentId ?? null,
      patch.authorizeTxHash ?? null,
      patch.buyerAuthorizeTxHash ?? null,
      patch.claimTxHash ?? null,
      resaleId,
    ],
  );
}

/**
 * After the payment: the buyer's wallet is authorized on chain. One transaction: the AUTHORIZE_CLAIM event
 * (once per transaction hash) with the passport's new content version, and the resale awaiting its claim.
 */
export async function recordBuyerAuthorized(
  em: EntityManager,
  terms: ResaleTerms,
  authorized: {
    paymentIntentId: string;
    transactionHash: string;
    blockNumber: number;
    at: Date;
    admin: string;
    contractAddress: string;
  },
  publicBaseUrl: string,
): Promise<void> {
  await em.transactional(async (tx) => {
    if (
      !(await tx.count(SupplyChainEvent, {
        ...ownedBy(terms.scope),
        tokenId: terms.tokenId,
        transactionHash: authorized.transactionHash,
        action: 'AUTHORIZE_CLAIM',
      }))
    ) {
      tx.create(SupplyChainEvent, {
        ...ownedBy(terms.scope),
        tokenId: terms.tokenId,
        action: 'AUTHORIZE_CLAIM',
        actor: authorized.admin,
        actorEmail: null,
        locationName: null,
        latitude: null,
        longitude: null,
        metadata: {
          authorizedAccount: terms.buyerWallet,
          currentOwner: terms.sellerWallet,
          resaleId: terms.resaleId,
        },
        dataHash: null,
        transactionHash: authorized.transactionHash,
        blockNumber: authorized.blockNumber,
        contractAddress: authorized.contractAddress,
        timestamp: authorized.at,
      });
      await tx.flush();
      const passport = await tx.findOne(
        Passport,
        { tokenId: terms.tokenId, companyId: terms.scope.companyId, environment: terms.scope.environment },
        { fields: ['id'] },
      );
      if (passport) await recordPassportVersion(tx, passport.id, publicBaseUrl);
    }
    await updateResale(tx, terms.resaleId, {
      status: 'AWAITING_CLAIM',
      paymentIntentId: authorized.paymentIntentId,
      buyerAuthorizeTxHash: authorized.transactionHash,
    });
  });
}

/**
 * The claim went through on chain. One transaction, under a lock on the passport so a retry changes nothing:
 * the passport's new owner, the CLAIM_OWNERSHIP event, asset.transferred and asset.resold (the spec groups
 * them) in the outbox, the passport's new content version, the resale CLAIMED.
 */
export async function recordClaim(
  em: EntityManager,
  terms: ResaleTerms,
  claim: {
    transactionHash: string;
    blockNumber: number;
    from: string;
    claimedAt: Date;
    contractAddress: string;
    relayer: string;
  },
  publicBaseUrl: string,
): Promise<void> {
  await em.transactional(async (tx) => {
    // Token ids are per environment (test and live both count from 1): the passport is the one of the sale's
    // company in the sale's environment, never a namesake in the other environment.
    const passport = await tx.findOne(
      Passport,
      { tokenId: terms.tokenId, companyId: terms.scope.companyId, environment: terms.scope.environment },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    if (!passport) throw new DomainError('not_found', 'passport_not_found', `No passport ${terms.tokenId}.`);
    if (
      await tx.count(SupplyChainEvent, {
        ...ownedBy(terms.scope),
        tokenId: terms.tokenId,
        transactionHash: claim.transactionHash,
        action: 'CLAIM_OWNERSHIP',
      })
    ) {
      return;
    }
    passport.ownerWallet = terms.buyerWallet;
    passport.updatedAt = new Date();
    tx.create(SupplyChainEvent, {
      ...ownedBy(terms.scope),
      tokenId: terms.tokenId,
      action: 'CLAIM_OWNERSHIP',
      actor: claim.relayer,
      actorEmail: null,
      locationName: null,
      latitude: null,
      longitude: null,
      metadata: {
        from: claim.from,
        to: terms.buyerWallet,
        newOwner: terms.buyerWallet,
        resaleId: terms.resaleId,
      },
      dataHash: null,
      transactionHash: claim.transactionHash,
      blockNumber: claim.blockNumber,
      contractAddress: claim.contractAddress,
      timestamp: claim.claimedAt,
    });
    const data = {
      tokenId: terms.tokenId,
      from: claim.from,
      to: terms.buyerWallet,
      salePrice: formatMinorUnits(terms.price.amount, terms.price.currency),
      currency: terms.price.currency.toUpperCase(),
      transactionHash: claim.transactionHash,
      // A transfer keeps the running warranty (started by the first sale; null if never sold): docs/webhooks.md.
      warrantyExpiry: passport.warrantyExpiry?.toISOString() ?? null,
    };
    recordEvent(tx, terms.scope, 'asset.transferred', data, claim.claimedAt);
    recordEvent(tx, terms.scope, 'asset.resold', data, claim.claimedAt);
    await tx.flush();
    await recordPassportVersion(tx, passport.id, publicBaseUrl);
    await updateResale(tx, terms.resaleId, { status: 'CLAIMED', claimTxHash: claim.transactionHash });
  });
}

export function newResaleId(): string {
  return randomUUID();
}
