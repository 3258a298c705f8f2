import type { WorkflowStartOptions } from '@temporalio/client';
import {
  type Client,
  WorkflowExecutionAlreadyStartedError,
  type WorkflowHandle,
  type WorkflowHandleWithFirstExecutionRunId,
} from '@temporalio/client';
import type { Workflow } from '@temporalio/common';
import type { Environment } from '../../platform/config/config.ts';
import { DomainError } from '../../platform/errors.ts';
import {
  type SearchAttributeValues,
  searchAttributePairs,
  searchAttributes,
} from '../../processes/search-attributes.ts';
import { taskQueueFor } from '../../processes/task-queues.ts';

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
 *
 * With `ownRunsOnly`, a run is joined (or reported completed) only if the caller's company started it (its
 * `DppCompanyId`, which is `searchAttributes.company`); another company's run throws `ownRunsOnly()` instead,
 * so its handle, and with it its result, never reaches the caller. For ids that do not name the company
 * (e.g. `mint:{env}:{chipUid}`, where one chip has one passport whichever company asks).
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
    /** The error for a run of another company than `searchAttributes.company` (see above). */
    ownRunsOnly?: () => Error;
  },
): Promise<{ handle: WorkflowHandle<W>; alreadyCompleted: boolean }> {
  const refuseForeign = async (runId?: string) => {
    if (!options.ownRunsOnly) return;
    const run = gateway.client.workflow.getHandle(options.workflowId, runId);
    const company = (await run.describe()).typedSearchAttributes.get(searchAttributes.company);
    if (company === undefined || company !== options.searchAttributes.company) throw options.ownRunsOnly();
  };
  let handle: WorkflowHandleWithFirstExecutionRunId<W>;
  try {
    handle = await gateway.client.workflow.start(
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
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) {
      await refuseForeign();
      return { handle: gateway.client.workflow.getHandle<W>(options.workflowId), alreadyCompleted: true };
    }
    throw error;
  }
  // The run started, or the one already running under the id (USE_EXISTING): the start does not say which.
  await refuseForeign(handle.firstExecutionRunId);
  return { handle, alreadyCompleted: false };
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
