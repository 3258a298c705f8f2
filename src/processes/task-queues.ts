import type { Environment } from '../platform/config/config.ts';

/**
 * One namespace, one task queue per environment (`dpp-live`, `dpp-test`): the worker gives each queue
 * activities bound to that environment's chain, contract and keys, so a test workflow can never reach live.
 */
export function taskQueueFor(prefix: string, environment: Environment): string {
  return `${prefix}-${environment}`;
}
