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
 * What a start does when a run under the workflow id is going, or has closed:
 * - `join` (a business process done once: mint, recycle, anchor): a running run is joined, a failed one
 *   (failed, terminated, cancelled, timed out) may be started again, a completed one is not repeated
 *   (`alreadyCompleted`);
 * - `exclusive` (one run at a time, again and again over time: a token's resales, a webhook replay): nothing
 *   starts while a run is going (`alreadyRunning`); once it closed, however it ended, a new run may start;
 * - `once` (a webhook's first delivery): a running run is joined; once it closed, however it ended, nothing
 *   starts again (`alreadyCompleted`).
 */
export type StartPolicy = 'join' | 'exclusive' | 'once';

const ID_POLICIES = {
  join: { workflowIdConflictPolicy: 'USE_EXISTING', workflowIdReusePolicy: 'ALLOW_DUPLICATE_FAILED_ONLY' },
  exclusive: { workflowIdConflictPolicy: 'FAIL', workflowIdReusePolicy: 'ALLOW_DUPLICATE' },
  once: { workflowIdConflictPolicy: 'USE_EXISTING', workflowIdReusePolicy: 'REJECT_DUPLICATE' },
} as const;

export interface StartOrJoinOptions<W extends Workflow> {
  workflowId: string;
  environment: Environment;
  args: Parameters<W>;
  summary: string;
  searchAttributes: SearchAttributeValues;
  /** `join` unless told (see StartPolicy). */
  policy?: StartPolicy;
  /** The error for a run of another company than `searchAttributes.company` (see below). */
  ownRunsOnly?: () => Error;
}

export interface StartedOrJoined<W extends Workflow> {
  /** The run started or joined; when nothing started, the latest run under the id. */
  handle: WorkflowHandle<W>;
  /** `join`, `once`: a run under the id closed before, and the policy starts none again. */
  alreadyCompleted: boolean;
  /** `exclusive`: a run under the id is going, so none started. */
  alreadyRunning: boolean;
}

/**
 * Starts a workflow under a business id, or joins the run already going under that id, so a retried
 * HTTP call never starts a second one; `policy` says what happens when a run under the id is going or
 * has closed. Every workflow start of the service goes through here.
 *
 * With `ownRunsOnly`, a run is joined (or reported completed or running) only if the caller's company
 * started it (its `DppCompanyId`, which is `searchAttributes.company`); another company's run throws
 * `ownRunsOnly()` instead, so its handle, and with it its result, never reaches the caller. For ids that do
 * not name the company (e.g. `mint:{env}:{chipUid}`, where one chip has one passport whichever company asks).
 */
export async function startOrJoin<W extends Workflow>(
  gateway: WorkflowGateway,
  workflow: string,
  options: StartOrJoinOptions<W>,
): Promise<StartedOrJoined<W>> {
  const policy = options.policy ?? 'join';
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
        ...ID_POLICIES[policy],
        staticSummary: options.summary,
        typedSearchAttributes: searchAttributePairs(options.searchAttributes),
      } as unknown as WorkflowStartOptions<W>,
    );
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) {
      await refuseForeign();
      const running = policy === 'exclusive';
      return {
        handle: gateway.client.workflow.getHandle<W>(options.workflowId),
        alreadyCompleted: !running,
        alreadyRunning: running,
      };
    }
    throw error;
  }
  // The run started, or the one already running under the id (USE_EXISTING): the start does not say which.
  await refuseForeign(handle.firstExecutionRunId);
  return { handle, alreadyCompleted: false, alreadyRunning: false };
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
