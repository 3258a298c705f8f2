import type { WorkflowStartOptions } from '@temporalio/client';
import { type Client, WorkflowExecutionAlreadyStartedError, type WorkflowHandle } from '@temporalio/client';
import type { Workflow } from '@temporalio/common';
import type { Environment } from '../config/config.ts';
import { DomainError } from '../errors.ts';
import { type SearchAttributeValues, searchAttributePairs } from './search-attributes.ts';
import { taskQueueFor } from './task-queues.ts';

export interface WorkflowGateway {
  client: Client;
  taskQueuePrefix: string;
}

/** The gateway, or a 503-class error when this process runs without a workflow service. */
export function requireWorkflows(gateway: WorkflowGateway | undefined): WorkflowGateway {
  if (!gateway) {
    throw new DomainError('unavailable', 'workflows_unavailable', 'Workflow service is not configured.');
  }
  return gateway;
}

/**
 * Starts a workflow under a business id, or joins the run already going under that id, so a retried
 * HTTP call never starts a second one. A completed run is not repeated: `alreadyCompleted` says so.
 */
export async function startOrJoin<W extends Workflow>(
  gateway: WorkflowGateway,
  workflow: string,
  options: {
    workflowId: string;
    environment: Environment;
    args: Parameters<W>;
    summary: string;
    searchAttributes: SearchAttributeValues;
  },
): Promise<{ handle: WorkflowHandle<W>; alreadyCompleted: boolean }> {
  try {
    const handle = await gateway.client.workflow.start(
      workflow as unknown as W,
      {
        workflowId: options.workflowId,
        taskQueue: taskQueueFor(gateway.taskQueuePrefix, options.environment),
        args: options.args,
        workflowIdConflictPolicy: 'USE_EXISTING',
        workflowIdReusePolicy: 'ALLOW_DUPLICATE_FAILED_ONLY',
        staticSummary: options.summary,
        typedSearchAttributes: searchAttributePairs(options.searchAttributes),
      } as unknown as WorkflowStartOptions<W>,
    );
    return { handle, alreadyCompleted: false };
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) {
      return { handle: gateway.client.workflow.getHandle<W>(options.workflowId), alreadyCompleted: true };
    }
    throw error;
  }
}

/** The workflow's result if it finishes within `ms`, else `undefined` (the run goes on). */
export async function resultWithin<T>(
  handle: { result(): Promise<T> },
  ms: number,
): Promise<{ done: true; value: T } | { done: false }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<{ done: false }>((resolve) => {
    timer = setTimeout(() => resolve({ done: false }), ms);
  });
  try {
    return await Promise.race([handle.result().then((value) => ({ done: true as const, value })), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
