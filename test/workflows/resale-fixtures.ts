import type { WorkflowHandle } from '@temporalio/client';
import {
  CLAIM_UPDATE,
  type ClaimResult,
  type PaymentSucceeded,
  type ResaleInput,
  type ResaleProgress,
} from '../../src/processes/resale.ts';
import type { resalePassport } from '../../workflows/index.ts';
import { eventually, type Stubs, scope } from './support.ts';

/** One release and its payment, and stub activities answering as the real ones do, for the resale's fast tests. */
export const terms: ResaleInput = {
  resaleId: 'resale-1',
  scope,
  tokenId: '7',
  seller: { kind: 'company', companyId: scope.companyId },
  sellerWallet: '0xseller',
  buyerEmail: 'buyer@example.com',
  buyerWallet: '0xBuyer',
  price: { amount: 9900, currency: 'eur' },
  returnUrl: 'https://example.com/return',
};
export const paid: PaymentSucceeded = {
  eventId: 'evt_1',
  resaleId: 'resale-1',
  paymentIntentId: 'pi_1',
  chargeId: 'ch_1',
  amount: 9900,
  currency: 'eur',
};

export function stubs(overrides: Stubs = {}): Stubs {
  return {
    createResaleCheckout: ({ expiresAt }) => ({
      sessionId: 'cs_1',
      url: 'https://checkout.example/cs_1',
      expiresAt: new Date(expiresAt * 1000).toISOString(),
    }),
    expireResaleCheckout: () => undefined,
    delegateToPlatform: () => ({ transactionHash: '0xdelegate', blockNumber: 20 }),
    recordResaleStarted: () => undefined,
    authorizeClaimOnChain: () => ({ transactionHash: '0xbuyer', blockNumber: 21 }),
    recordBuyerAuthorized: () => undefined,
    claimOnChain: () => ({ transactionHash: '0xclaim', blockNumber: 22, from: '0xSeller', claimedAt: 'now' }),
    recordClaim: () => undefined,
    revokeClaimOnChain: () => ({ revokeTxHash: '0xrevoke' }),
    refundResalePayment: () => ({ refundId: 're_1' }),
    recordResaleEnded: () => undefined,
    flagRefundFailed: () => undefined,
    payOutResale: () => ({
      transfers: [{ party: 'seller', transferId: 'tr_1', amount: 9306, currency: 'eur' }],
    }),
    ...overrides,
  };
}

export type Handle = WorkflowHandle<typeof resalePassport>;
export const progressOf = (handle: Handle) => handle.query<ResaleProgress>('resaleProgress');
export const inState = (handle: Handle, state: ResaleProgress['state']) =>
  eventually(
    () => progressOf(handle),
    (progress) => progress.state === state,
  );
export const claim = (handle: Handle, buyerWallet = terms.buyerWallet) =>
  handle.executeUpdate<ClaimResult, [{ buyerWallet: string }]>(CLAIM_UPDATE, { args: [{ buyerWallet }] });
