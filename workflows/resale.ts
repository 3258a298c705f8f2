import {
  allHandlersFinished,
  condition,
  defineQuery,
  defineSignal,
  defineUpdate,
  ParentClosePolicy,
  proxyActivities,
  setHandler,
  startChild,
} from '@temporalio/workflow';
import type { Activities } from '../activities/index.ts';
import {
  CLAIM_UPDATE,
  type ClaimRequest,
  type ClaimResult,
  PAYMENT_SUCCEEDED_SIGNAL,
  type PaymentSucceeded,
  RESALE_PROGRESS_QUERY,
  type ResaleInput,
  type ResaleProgress,
  type ResaleResult,
} from '../src/processes/resale.ts';
import { chainStep, databaseStep, paymentStep, recordingRound } from './activity-options.ts';
import { recordUntilDone } from './record-until-done.ts';
import { resalePayout } from './resale-payout.ts';
import { refusalOf, refusedPaymentRefunds } from './resale-refusals.ts';

export const resaleProgressQuery = defineQuery<ResaleProgress>(RESALE_PROGRESS_QUERY);
export const paymentSucceededSignal = defineSignal<[PaymentSucceeded]>(PAYMENT_SUCCEEDED_SIGNAL);
export const claimUpdate = defineUpdate<ClaimResult, [ClaimRequest]>(CLAIM_UPDATE);

const chain = proxyActivities<Activities>(chainStep(['NoClaimAuthorized']));
const database = proxyActivities<Activities>(databaseStep());
const payments = proxyActivities<Activities>(paymentStep());

const recording = proxyActivities<Activities>(recordingRound());

/** Stripe lets a Checkout Session live 24 hours at most: the buyer pays within that, or the release ends. */
export const PAYMENT_WINDOW = '24 hours';
/** The session expires a little before the window closes, so no payment can land after we gave up. */
const CHECKOUT_LIFETIME_SECONDS = 23 * 3600 + 50 * 60;
/** A paid buyer has this long to tap the chip and claim; then the payment is refunded. */
export const CLAIM_WINDOW = '30 days';
const CLAIM_WINDOW_MS = 30 * 24 * 3600 * 1000;

/**
 * Resells one passport (id `resale:{env}:{tokenId}`):
 * 1. createResaleCheckout — a Stripe Checkout Session for the buyer (undone by expiring it), opened before
 *    the chain is touched, so a release the payment provider refuses costs no gas;
 * 2. delegateToPlatform — authorizeClaim to the platform admin on chain (undone by revokeClaim, after the
 *    checkout expired); then the release is recorded and the checkout's URL handed out;
 * 3. wait for the payment (`paymentSucceeded` from the signed webhook) for up to 24 hours, else expire the
 *    checkout, then revoke the delegation;
 * 4. authorizeBuyer — authorizeClaim to the buyer's wallet, AUTHORIZE_CLAIM recorded;
 * 5. wait for the buyer's claim (the `claim` update, after a fresh tap of the chip) for up to 30 days, else
 *    refund the payment and revoke the authorization;
 * 6. claimOnChain — claimOwnershipFor the buyer (the platform relays; buyers hold no gas), then
 *    recordClaim — owner, CLAIM_OWNERSHIP, asset.transferred and asset.resold; never given up once the
 *    claim is on chain: failed rounds flag the workflow (`DppAttention = "record_failed"`, `attention` in
 *    the progress) and it retries every 10 minutes, or at once on `retryRecording` (record-until-done.ts);
 * 7. start resale-payout:{env}:{resaleId} (workflows/resale-payout.ts) without waiting for it: 94 % to the
 *    seller, 5 % to the brand, 1 % stays with the platform, once the receiving accounts are verified.
 * Any other payment (wrong amount or currency, another resale's, a second one, one after the window) is
 * refunded once, whatever the step, and the workflow ends only after its refunds (resale-refusals.ts).
 */
export async function resalePassport(input: ResaleInput): Promise<ResaleResult> {
  let progress: ResaleProgress = { state: 'AUTHORIZING' };
  let payment: PaymentSucceeded | undefined;
  /** Payments are taken while the checkout is open: from AWAITING_PAYMENT until the window closes. */
  let windowOpen = false;
  let claimRequested = false;
  let claimed: ClaimResult | undefined;
  const undo: (() => Promise<unknown>)[] = [];
  setHandler(resaleProgressQuery, () => progress);
  const refunds = refusedPaymentRefunds(input, {
    read: () => progress.refusedPayments ?? [],
    write: (refusedPayments) => {
      progress = { ...progress, refusedPayments };
    },
  });
  setHandler(paymentSucceededSignal, async (paid) => {
    // The same payment again (a redelivery, another event of the same intent) changes nothing.
    if (paid.paymentIntentId === payment?.paymentIntentId || refunds.known(paid.paymentIntentId)) return;
    const reason = refusalOf(input, paid, {
      windowOpen,
      paidWith: payment?.paymentIntentId,
      state: progress.state,
    });
    if (reason === undefined) {
      payment = paid;
      return;
    }
    await refunds.refund(paid, reason);
  });
  setHandler(
    claimUpdate,
    async () => {
      claimRequested = true;
      await condition(() => claimed !== undefined);
      return claimed!;
    },
    {
      validator: (request) => {
        if (progress.state !== 'AWAITING_CLAIM')
          throw new Error(`The resale is ${progress.state}, not awaiting a claim.`);
        if (request.buyerWallet.toLowerCase() !== input.buyerWallet.toLowerCase()) {
          throw new Error('Only the buyer who paid can claim this passport.');
        }
      },
    },
  );
  const undoAll = async () => {
    let revokeTxHash: string | null = null;
    for (const step of undo.reverse()) {
      const outcome = await step();
      if (outcome && typeof outcome === 'object' && 'revokeTxHash' in outcome) {
        revokeTxHash = (outcome as { revokeTxHash: string | null }).revokeTxHash;
      }
    }
    return revokeTxHash;
  };

  // 1 and 2. A release that cannot be set up is undone at once and ends FAILED (its row no longer blocks
  // the next release of the token).
  try {
    // 1. The buyer's Checkout Session: a refusal fails the release with nothing sent to the chain. Its URL
    // is not handed out before the delegation is mined, so nobody pays for an undelegated item.
    const expiresAt = Math.floor(Date.now() / 1000) + CHECKOUT_LIFETIME_SECONDS;
    const checkout = await payments.createResaleCheckout({ terms: input, expiresAt });
    undo.push(() => payments.expireResaleCheckout({ sessionId: checkout.sessionId }));
    // 2. The platform admin holds the delegation while the item is for sale. Undone after the checkout
    // expired (first in the list, which is undone in reverse), so no payment lands on a revoked release.
    const delegated = await chain.delegateToPlatform({ tokenId: input.tokenId });
    undo.unshift(() => chain.revokeClaimOnChain({ tokenId: input.tokenId }));
    progress = { ...progress, authorizeTxHash: delegated.transactionHash };
    await database.recordResaleStarted({
      terms: input,
      authorizeTxHash: delegated.transactionHash,
      checkoutSessionId: checkout.sessionId,
    });
    progress = {
      ...progress,
      state: 'AWAITING_PAYMENT',
      checkoutUrl: checkout.url,
      checkoutExpiresAt: checkout.expiresAt,
    };
    windowOpen = true;
  } catch (error) {
    await undoAll();
    progress = { ...progress, state: 'FAILED' };
    await database.recordResaleEnded({ terms: input, status: 'FAILED' });
    await condition(allHandlersFinished);
    throw error;
  }

  // 3. Paid within the window, or the release is undone and the passport is the seller's again; a payment
  // landing while it is undone is refused (and refunded) like any payment that does not complete the sale.
  if (!(await condition(() => payment !== undefined, PAYMENT_WINDOW))) {
    windowOpen = false;
    const revokeTxHash = await undoAll();
    progress = { ...progress, state: 'EXPIRED' };
    await database.recordResaleEnded({ terms: input, status: 'EXPIRED' });
    await condition(allHandlersFinished);
    return { state: 'EXPIRED', revokeTxHash };
  }
  windowOpen = false;
  const paid = payment!;
  progress = { ...progress, state: 'PAID', paymentIntentId: paid.paymentIntentId };
  undo.length = 0;
  undo.push(() => payments.refundResalePayment({ terms: input, paymentIntentId: paid.paymentIntentId }));

  // 4. The buyer's wallet may now take the passport over.
  const buyerAuthorized = await chain.authorizeClaimOnChain({
    tokenId: input.tokenId,
    account: input.buyerWallet,
  });
  undo.push(() => chain.revokeClaimOnChain({ tokenId: input.tokenId }));
  const claimDeadline = new Date(Date.now() + CLAIM_WINDOW_MS).toISOString();
  await database.recordBuyerAuthorized({
    terms: input,
    paymentIntentId: paid.paymentIntentId,
    transactionHash: buyerAuthorized.transactionHash,
    blockNumber: buyerAuthorized.blockNumber,
  });
  progress = {
    ...progress,
    state: 'AWAITING_CLAIM',
    buyerAuthorizeTxHash: buyerAuthorized.transactionHash,
    claimDeadline,
  };

  // 5. The buyer proves possession by tapping the chip, or is refunded.
  if (!(await condition(() => claimRequested, CLAIM_WINDOW))) {
    const revokeTxHash = await undoAll();
    progress = { ...progress, state: 'CLAIM_EXPIRED' };
    await database.recordResaleEnded({ terms: input, status: 'CLAIM_EXPIRED' });
    await condition(allHandlersFinished);
    return { state: 'CLAIM_EXPIRED', revokeTxHash };
  }

  // 6. Ownership moves on chain, relayed by the platform.
  progress = { ...progress, state: 'CLAIMING' };
  const transfer = await chain.claimOnChain({
    tokenId: input.tokenId,
    buyerWallet: input.buyerWallet,
    sinceBlock: buyerAuthorized.blockNumber,
  });
  // Ownership moved on chain: recording it is never given up (else no webhook, no payout, no refund).
  await recordUntilDone(
    () => recording.recordClaim({ terms: input, ...transfer }),
    (attention) => {
      progress = { ...progress, claimTxHash: transfer.transactionHash, attention };
    },
  );
  claimed = { txHash: transfer.transactionHash, ownerWallet: input.buyerWallet, from: transfer.from };
  progress = { ...progress, state: 'CLAIMED', claimTxHash: transfer.transactionHash };

  // 7. The payout runs on its own (it may wait days for the sellers' verification); this sale is done.
  const payoutWorkflowId = `resale-payout:${input.scope.environment}:${input.resaleId}`;
  await startChild(resalePayout, {
    workflowId: payoutWorkflowId,
    args: [{ terms: input, paymentIntentId: paid.paymentIntentId, chargeId: paid.chargeId }],
    parentClosePolicy: ParentClosePolicy.ABANDON,
    staticSummary: `Pay out resale ${input.resaleId} of passport ${input.tokenId} (94/5/1)`,
  });
  progress = { ...progress, payoutWorkflowId };

  await condition(allHandlersFinished);
  return { state: 'CLAIMED', ...claimed };
}
