import { notFound } from './errors.ts';
import type { WorkflowRun } from './workflow-run.ts';

/** All runs, by namespace and run id, and the chain of runs per workflow id. */
export class WorkflowStore {
  #runs = new Map<string, WorkflowRun>();
  #chains = new Map<string, WorkflowRun[]>();

  add(run: WorkflowRun): void {
    this.#runs.set(`${run.namespace}/${run.runId}`, run);
    const key = `${run.namespace}/${run.workflowId}`;
    const chain = this.#chains.get(key);
    if (chain) chain.push(run);
    else this.#chains.set(key, [run]);
  }

  /** The latest run of a workflow id, if any. */
  current(namespace: string, workflowId: string): WorkflowRun | undefined {
    return this.#chains.get(`${namespace}/${workflowId}`)?.at(-1);
  }

  runById(namespace: string, runId: string): WorkflowRun | undefined {
    return this.#runs.get(`${namespace}/${runId}`);
  }

  /** A specific run, or the current one when runId is empty; throws NOT_FOUND. */
  find(namespace: string, workflowId: string, runId?: string | null): WorkflowRun {
    const run = runId ? this.runById(namespace, runId) : this.current(namespace, workflowId);
    if (!run || (workflowId && run.workflowId !== workflowId)) {
      throw notFound(`workflow not found for ID: ${workflowId}`);
    }
    return run;
  }

  runs(namespace: string): WorkflowRun[] {
    return [...this.#runs.values()].filter((run) => run.namespace === namespace);
  }
}
