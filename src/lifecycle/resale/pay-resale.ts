import type { EntityManager } from '@mikro-orm/postgresql';
import { WorkflowNotFoundError } from '@temporalio/client';
import { z } from 'zod';
import type { StripeGateway } from '../../adapters/payments/stripe-gateway.ts';
import { requireWorkflows, type WorkflowGateway } from '../../adapters/temporal/start.ts';
import type { Environment } from '../../platform/config/config.ts';
import { DomainError } from '../../platform/errors.ts';
import type { Logger } from '../../platform/logging/logger.ts';
import { PAYMENT_SUCCEEDED_SIGNAL, type PaymentSucceeded } from '../../processes/resale.ts';
import { workflowIds } from '../../processes/workflow-ids.ts';
import { refundLatePayment } from './refund-late-payment.ts';
import { findResaleForPayment } from './resale-records.ts';

export interface PayResaleInput {
  /** The environment whose webhook secret verified the event. */
  environment: Environment;
  /** What the payment names (its metadata): the token, and the buyer's wallet and/or our resale id. */
  names: { tokenId: string; buyerWallet: string | undefined; resaleId: string | undefined };
  /** The payment as the workflow takes it, less the resale it pays (found here). */
  payment: Omit<PaymentSucceeded, 'resaleId'>;
}

/**
 * A succeeded payment of a resale (Stripe's payment_intent.succeeded): the open resale of the token it names,
 * for that buyer (and with that id when it names one), is signalled; the workflow checks amount and currency
 * against the release and authorizes the buyer on chain (and refunds a payment it refuses). A payment naming
 * a resale of ours that ended is refunded (refund-late-payment.ts); one naming no resale of ours, or a resale
 * whose workflow is gone, is `ignored`. A signal that fails otherwise is 503 workflows_unavailable: the caller
 * rolls back its record of the event, so the provider delivers it again.
 */
export async function payResale(
  deps: { em: EntityManager; workflows: WorkflowGateway | undefined; payments: StripeGateway; log: Logger },
  input: PayResaleInput,
): Promise<'ignored' | undefined> {
  if (!namesAResale(input.names)) return 'ignored';
  const resale = await findResaleForPayment(deps.em, input.environment, input.names);
  if (!resale) return (await refundLatePayment(deps, input)) ? undefined : 'ignored';
  const workflows = requireWorkflows(deps.workflows);
  const payment: PaymentSucceeded = { ...input.payment, resaleId: resale.id };
  try {
    await workflows.client.workflow
      .getHandle(workflowIds.resale(input.environment, resale.token_id))
      .signal(PAYMENT_SUCCEEDED_SIGNAL, payment);
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return 'ignored';
    throw new DomainError(
      'unavailable',
      'workflows_unavailable',
      'Could not pass the payment on to the resale; Stripe will deliver the event again.',
    );
  }
}

/** Token ids are decimal digits and resale ids UUIDs: anything else names no resale of ours. */
function namesAResale(names: PayResaleInput['names']): boolean {
  if (!/^[1-9]\d{0,77}$/.test(names.tokenId)) return false;
  return names.resaleId === undefined || z.uuid().safeParse(names.resaleId).success;
}
