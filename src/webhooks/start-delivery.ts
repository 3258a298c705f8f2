import { startOrJoin, type WorkflowGateway } from '../adapters/temporal/start.ts';
import {
  type DeliveryMode,
  type DeliveryRef,
  WEBHOOK_DELIVERY_WORKFLOW,
  type WebhookDeliveryWorkflow,
} from '../processes/webhook-delivery.ts';
import { workflowIds } from '../processes/workflow-ids.ts';

export interface DeliveryStart {
  workflowId: string;
  /**
   * - `started`: a run is going (a new one, or for a dispatch the one already running under the id);
   * - `already_closed` (dispatch): the delivery ran before and finished; nothing is repeated;
   * - `already_running` (replay): a run is still going, so it is left alone and nothing new starts.
   */
  outcome: 'started' | 'already_closed' | 'already_running';
}

/**
 * Starts the delivery workflow `webhook:{eventId}:{endpointId}`.
 *
 * `dispatch` (the outbox dispatcher, a test event): a second start never duplicates a delivery; it joins
 * the running run or, if the run already closed, starts nothing (policy `once`).
 * `replay` (dead-letter replay): a fresh run with the full schedule under the same id once the previous
 * run has closed; its first step puts the delivery row back to pending and numbers its attempts on from
 * the last one. A run still going is left alone (policy `exclusive`).
 */
export async function startDeliveryWorkflow(
  gateway: WorkflowGateway,
  delivery: DeliveryRef,
  mode: DeliveryMode,
  start: { firstAttemptMade?: boolean } = {},
): Promise<DeliveryStart> {
  const workflowId = workflowIds.webhook(delivery.eventId, delivery.endpointId);
  const { alreadyCompleted, alreadyRunning } = await startOrJoin<WebhookDeliveryWorkflow>(
    gateway,
    WEBHOOK_DELIVERY_WORKFLOW,
    {
      workflowId,
      environment: delivery.environment,
      args: [{ delivery, mode, ...(start.firstAttemptMade ? { firstAttemptMade: true } : {}) }],
      policy: mode === 'dispatch' ? 'once' : 'exclusive',
      summary: `${mode === 'replay' ? 'Replay' : 'Deliver'} ${delivery.eventType} ${delivery.eventId} to webhook endpoint ${delivery.endpointId}`,
      searchAttributes: { environment: delivery.environment, company: delivery.companyId },
    },
  );
  if (alreadyCompleted) return { workflowId, outcome: 'already_closed' };
  if (alreadyRunning) return { workflowId, outcome: 'already_running' };
  return { workflowId, outcome: 'started' };
}
