import type Stripe from 'stripe';
import { type SaleProceeds, splitProceeds } from './money.ts';
import { resaleIdempotencyKey, transferGroup } from './resale-checkout.ts';

/** A party's Stripe Connect account, as KYB (companies) or KYC (individual sellers) left it. */
export interface PayoutDestination {
  connectId: string;
  verified: boolean;
}

export interface PayoutParties {
  /** The seller: the brand itself, or the consumer who released the passport. */
  seller: PayoutDestination | null;
  /** The brand whose passport it is (its 5 % royalty); the seller's account when the brand sells. */
  brand: PayoutDestination | null;
}

export type PayoutShare = 'seller' | 'brand' | 'seller_and_brand';

export type PayoutOutcome =
  | {
      paid: true;
      proceeds: SaleProceeds;
      transfers: { party: PayoutShare; transferId: string; amount: number; currency: string }[];
    }
  | { paid: false; waitingFor: ('seller' | 'brand')[] };

/**
 * Splits a claimed sale 94/5/1 with separate transfers out of the buyer's charge (source_transaction: each
 * transfer waits for the charge's funds). What is split is what the platform holds from the charge: its
 * balance transaction's amount net of Stripe's processing fee, in the balance's (settlement) currency — the
 * seller's 94 %, the brand's 5 %, the platform keeps the rest (1 % and the rounding), see `splitProceeds`. A
 * brand selling its own passport receives 99 % in one transfer. Nothing moves until every receiving account is
 * verified; each transfer has its own Stripe idempotency key, so a retry never pays twice.
 */
export async function payOutSale(
  stripe: Stripe,
  input: {
    resaleId: string;
    paymentIntentId: string;
    /** From the payment event; looked up on the payment intent when the event did not carry it. */
    chargeId?: string | undefined;
    price: { amount: number; currency: string };
    sellerIsBrand: boolean;
    parties: PayoutParties;
  },
): Promise<PayoutOutcome> {
  const waitingFor: ('seller' | 'brand')[] = [];
  if (!input.parties.seller?.verified) waitingFor.push('seller');
  if (!input.sellerIsBrand && !input.parties.brand?.verified) waitingFor.push('brand');
  if (waitingFor.length > 0) return { paid: false, waitingFor };

  let chargeId = input.chargeId;
  if (!chargeId) {
    const intent = await stripe.paymentIntents.retrieve(input.paymentIntentId);
    chargeId = typeof intent.latest_charge === 'string' ? intent.latest_charge : intent.latest_charge?.id;
  }
  if (!chargeId) throw new Error(`Payment intent ${input.paymentIntentId} has no charge to pay out of`);
  const charge = await stripe.charges.retrieve(chargeId, { expand: ['balance_transaction'] });
  const balance = charge.balance_transaction;
  if (!balance || typeof balance === 'string') {
    // Not settled into the platform's balance yet (some payment methods take days): retried later.
    throw new Error(`Charge ${chargeId} has no balance transaction yet; its fee is not known`);
  }
  const proceeds = splitProceeds({ gross: balance.amount, fee: balance.fee, currency: balance.currency });
  const legs: { party: PayoutShare; amount: number; to: PayoutDestination }[] = input.sellerIsBrand
    ? [{ party: 'seller_and_brand', amount: proceeds.seller + proceeds.brand, to: input.parties.seller! }]
    : [
        { party: 'seller', amount: proceeds.seller, to: input.parties.seller! },
        { party: 'brand', amount: proceeds.brand, to: input.parties.brand! },
      ];
  const transfers = [];
  for (const leg of legs) {
    if (leg.amount === 0) continue;
    const transfer = await stripe.transfers.create(
      {
        amount: leg.amount,
        currency: proceeds.currency,
        destination: leg.to.connectId,
        source_transaction: chargeId,
        transfer_group: transferGroup(input.resaleId),
        metadata: { resaleId: input.resaleId, share: leg.party },
      },
      { idempotencyKey: resaleIdempotencyKey(input.resaleId, `payout-${leg.party}`) },
    );
    transfers.push({
      party: leg.party,
      transferId: transfer.id,
      amount: leg.amount,
      currency: proceeds.currency,
    });
  }
  return { paid: true, proceeds, transfers };
}
