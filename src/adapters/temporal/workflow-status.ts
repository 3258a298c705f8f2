import { type WorkflowHandle, WorkflowNotFoundError } from '@temporalio/client';
import type { Workflow, WorkflowResultType } from '@temporalio/common';
import type { DomainError } from '../../platform/errors.ts';
import { searchAttributes } from '../../processes/search-attributes.ts';

export type WorkflowStatusBody<R> =
  | { success: true; workflowId: string; status: 'RUNNING'; progress: unknown }
  | { success: true; workflowId: string; status: 'COMPLETED'; result: R }
  | { success: true; workflowId: string; status: 'FAILED'; error: { code: string; message: string } };

/**
 * The body of a status resource for a business workflow: RUNNING with its progress query's answer,
 * COMPLETED with the (shaped) result, or FAILED with the failure as the client would have seen it.
 */
export async function workflowStatusBody<W extends Workflow, R>(
  handle: WorkflowHandle<W>,
  options: {
    progressQuery: string;
    /** Only the company that started it sees a workflow (its DppCompanyId); others get notFound. */
    companyId: string;
    notFound: () => DomainError;
    shapeResult: (result: WorkflowResultType<W>) => R;
    failure: (error: unknown) => DomainError | undefined;
  },
): Promise<WorkflowStatusBody<R>> {
  const workflowId = handle.workflowId;
  let running: boolean;
  try {
    const description = await handle.describe();
    if (description.typedSearchAttributes.get(searchAttributes.company) !== options.companyId) {
      throw options.notFound();
    }
    running = description.status.name === 'RUNNING';
  } catch (error) {
    throw error instanceof WorkflowNotFoundError ? options.notFound() : error;
  }
  if (running) {
    return {
      success: true,
      workflowId,
      status: 'RUNNING',
      progress: await handle.query(options.progressQuery),
    };
  }
  try {
    return {
      success: true,
      workflowId,
      status: 'COMPLETED',
      result: options.shapeResult(await handle.result()),
    };
  } catch (error) {
    const failure = options.failure(error);
    if (!failure) throw error;
    return {
      success: true,
      workflowId,
      status: 'FAILED',
      error: { code: failure.code, message: failure.message },
    };
  }
}
