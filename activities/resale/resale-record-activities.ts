import { flagRefundFailed } from '../../src/lifecycle/resale/refund-failed.ts';
import {
  type ResaleStatus,
  recordBuyerAuthorized,
  recordClaim,
  updateResale,
} from '../../src/lifecycle/resale/resale-records.ts';
import type { RefusedPayment } from '../../src/processes/resale.ts';
import type { ResaleTerms } from '../../src/processes/resale-terms.ts';
import { type EnvironmentDeps, scopedFor } from '../deps.ts';

/** The resale's database steps. Each one is idempotent. */
export function resaleRecordActivities(deps: EnvironmentDeps) {
  return {
    async recordResaleStarted(input: {
      terms: ResaleTerms;
      authorizeTxHash: string;
      checkoutSessionId: string;
    }) {
      await updateResale(scopedFor(deps, input.terms.scope), input.terms.resaleId, {
        status: 'AWAITING_PAYMENT',
        authorizeTxHash: input.authorizeTxHash,
        checkoutSessionId: input.checkoutSessionId,
      });
    },

    async recordBuyerAuthorized(input: {
      terms: ResaleTerms;
      paymentIntentId: string;
      transactionHash: string;
      blockNumber: number;
    }) {
      await recordBuyerAuthorized(
        scopedFor(deps, input.terms.scope),
        input.terms,
        {
          paymentIntentId: input.paymentIntentId,
          transactionHash: input.transactionHash,
          blockNumber: input.blockNumber,
          at: new Date(await deps.chain.reader.blockTime(input.blockNumber)),
          admin: deps.chain.signerAddress,
          contractAddress: deps.chain.contractAddress,
        },
        deps.publicBaseUrl,
      );
    },

    async recordClaim(input: {
      terms: ResaleTerms;
      transactionHash: string;
      blockNumber: number;
      from: string;
      claimedAt: string;
    }) {
      await recordClaim(
        scopedFor(deps, input.terms.scope),
        input.terms,
        {
          transactionHash: input.transactionHash,
          blockNumber: input.blockNumber,
          from: input.from,
          claimedAt: new Date(input.claimedAt),
          contractAddress: deps.chain.contractAddress,
          relayer: deps.chain.signerAddress,
        },
        deps.publicBaseUrl,
      );
    },

    /** A refused payment that could not be refunded: webhook event and error log (refund-failed.ts). */
    async flagRefundFailed(input: { terms: ResaleTerms; refused: RefusedPayment }) {
      await flagRefundFailed(scopedFor(deps, input.terms.scope), deps.logger, input.terms, input.refused);
    },

    async recordResaleEnded(input: {
      terms: ResaleTerms;
      status: Extract<ResaleStatus, 'EXPIRED' | 'CLAIM_EXPIRED' | 'FAILED'>;
    }) {
      await updateResale(scopedFor(deps, input.terms.scope), input.terms.resaleId, { status: input.status });
    },
  };
}
