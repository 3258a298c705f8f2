import type { RecordAttention } from './record-until-done.ts';
import type { ResaleTerms } from './resale-terms.ts';

export const RESALE_PROGRESS_QUERY = 'resaleProgress';
/** Sent by the payment webhook (payment_intent.succeeded) once its signature and event id are checked. */
export const PAYMENT_SUCCEEDED_SIGNAL = 'paymentSucceeded';
/** The buyer's claim (POST /v1/dpp/claim, after the tap verified): answered with the claim's transaction. */
export const CLAIM_UPDATE = 'claim';

export type { ResaleTerms as ResaleInput, Seller } from './resale-terms.ts';

export type ResaleState =
  | 'AUTHORIZING'
  | 'AWAITING_PAYMENT'
  | 'PAID'
  | 'AWAITING_CLAIM'
  | 'CLAIMING'
  | 'CLAIMED'
  | 'EXPIRED'
  | 'CLAIM_EXPIRED'
  | 'FAILED';

export interface ResaleProgress {
  state: ResaleState;
  /** The platform admin's delegation (authorizeClaim at release). */
  authorizeTxHash?: string;
  checkoutUrl?: string;
  checkoutExpiresAt?: string;
  paymentIntentId?: string;
  /** The buyer's authorization after payment. */
  buyerAuthorizeTxHash?: string;
  claimDeadline?: string;
  claimTxHash?: string;
  /** After the claim: the workflow paying the sale out 94/5/1. */
  payoutWorkflowId?: string;
  /** Claimed on chain but not recorded yet: the workflow retries until it is (operators: DppAttention). */
  attention?: RecordAttention;
  /**
   * Captured payments that do not complete this sale (wrong amount or currency, another resale's, a second
   * payment, one after the window closed): each is refunded once; a refund that fails for good is flagged.
   */
  refusedPayments?: RefusedPayment[];
}

export interface RefusedPayment {
  eventId: string;
  paymentIntentId: string;
  amount: number;
  currency: string;
  reason: string;
  /** pending while the refund is retried; failed (for good) is flagged to operators (resale.payment_refund_failed). */
  refund:
    | { status: 'pending' }
    | { status: 'refunded'; refundId: string }
    | { status: 'failed'; error: string };
}

export interface PaymentSucceeded {
  eventId: string;
  /** The resale the payment intent's metadata names: a late payment of an earlier resale is refused. */
  resaleId: string;
  paymentIntentId: string;
  /** The charge the payout's transfers come out of (the intent's latest_charge when the event carried it). */
  chargeId?: string;
  amount: number;
  currency: string;
}

export interface ClaimRequest {
  buyerWallet: string;
}

export interface ClaimResult {
  txHash: string;
  ownerWallet: string;
  from: string;
}

export type ResaleResult =
  | ({ state: 'CLAIMED' } & ClaimResult)
  | { state: 'EXPIRED' | 'CLAIM_EXPIRED'; revokeTxHash: string | null };

/** The resale workflow: its type name (as the worker registers it) and its signature. */
export const RESALE_WORKFLOW = 'resalePassport';
export type ResaleWorkflow = (input: ResaleTerms) => Promise<ResaleResult>;
