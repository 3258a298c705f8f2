import { WorkflowExecutionAlreadyStartedError, type WorkflowStartOptions } from '@temporalio/client';
import type { WorkflowGateway } from '../adapters/temporal/start.ts';
import { searchAttributePairs } from '../processes/search-attributes.ts';
import { taskQueueFor } from '../processes/task-queues.ts';
import type {
  DeliveryMode,
  DeliveryRef,
  WebhookDeliveryInput,
  WebhookDeliveryResult,
} from '../processes/webhook-delivery.ts';
import { workflowIds } from '../processes/workflow-ids.ts';

type WebhookDeliveryWorkflow = (input: WebhookDeliveryInput) => Promise<WebhookDeliveryResult>;

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
 * the running run or, if the run already closed, starts nothing.
 * `replay` (dead-letter replay): a fresh run with the full schedule under the same id once the previous
 * run has closed; its first step puts the delivery row back to pending and numbers its attempts on from
 * the last one. A run still going is left alone.
 */
export async function startDeliveryWorkflow(
  gateway: WorkflowGateway,
  delivery: DeliveryRef,
  mode: DeliveryMode,
  start: { firstAttemptMade?: boolean } = {},
): Promise<DeliveryStart> {
  const workflowId = workflowIds.webhook(delivery.eventId, delivery.endpointId);
  const options = {
    workflowId,
    taskQueue: taskQueueFor(gateway.taskQueuePrefix, delivery.environment),
    args: [{ delivery, mode, ...(start.firstAttemptMade ? { firstAttemptMade: true } : {}) }],
    ...(mode === 'dispatch'
      ? { workflowIdConflictPolicy: 'USE_EXISTING', workflowIdReusePolicy: 'REJECT_DUPLICATE' }
      : { workflowIdConflictPolicy: 'FAIL', workflowIdReusePolicy: 'ALLOW_DUPLICATE' }),
    staticSummary: `${mode === 'replay' ? 'Replay' : 'Deliver'} ${delivery.eventType} ${delivery.eventId} to webhook endpoint ${delivery.endpointId}`,
    typedSearchAttributes: searchAttributePairs({
      environment: delivery.environment,
      company: delivery.companyId,
    }),
  } satisfies WorkflowStartOptions<WebhookDeliveryWorkflow>;
  try {
    await gateway.client.workflow.start<WebhookDeliveryWorkflow>('webhookDelivery', options);
    return { workflowId, outcome: 'started' };
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) {
      return { workflowId, outcome: mode === 'dispatch' ? 'already_closed' : 'already_running' };
    }
    throw error;
  }
}
