import { proxyActivities, upsertSearchAttributes } from '@temporalio/workflow';
import type { Activities } from '../activities/index.ts';
import type { ResaleInput } from '../src/processes/resale.ts';
import { searchAttributes } from '../src/processes/search-attributes.ts';
import { payoutStep } from './activity-options.ts';

const payouts = proxyActivities<Activities>(payoutStep());

export interface ResalePayoutResult {
  status: 'PAID' | 'UNPAID';
  transfers?: { party: string; transferId: string; amount: number }[];
  error?: string;
}

/**
 * Pays a claimed sale out 94/5/1 (id `resale-payout:{env}:{resaleId}`, started by the resale workflow, which
 * does not wait for it: the new owner may resell at once). The payout waits for the receiving accounts'
 * verification (KYB/KYC), retried hourly for up to 90 days; past that an operator is asked to look
 * (DppAttention = "payout_failed") and the money stays on the platform account.
 */
export async function resalePayout(input: {
  terms: ResaleInput;
  paymentIntentId: string;
  chargeId?: string | undefined;
}): Promise<ResalePayoutResult> {
  try {
    const { transfers } = await payouts.payOutResale(input);
    return { status: 'PAID', transfers };
  } catch (error) {
    upsertSearchAttributes([{ key: searchAttributes.attention, value: 'payout_failed' }]);
    return { status: 'UNPAID', error: (error as Error).message };
  }
}
