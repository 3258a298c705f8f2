import type { TestProject } from 'vitest/node';
import { obtainAasTools } from '../../scripts/dev/aas-tools.ts';
import { startNpmStart } from '../journeys/global-setup.ts';
import { obtainDppvalidator } from './support/dppvalidator.ts';

/**
 * `npm run conformance` checks the service exactly as `npm start` runs it: the journeys' launcher (same
 * command, defaults, banner), without the browser the journeys need. Tests read it with `stack()` from
 * test/journeys/client.ts. The Python validators are obtained meanwhile (a first run installs them from PyPI
 * while the service starts); one that fails to install fails its own standard's clauses, not the run.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const tools = Promise.allSettled([obtainAasTools(), obtainDppvalidator()]);
  const stop = await startNpmStart(project, 'conformance');
  for (const outcome of await tools) {
    if (outcome.status === 'rejected') console.error(`conformance: ${(outcome.reason as Error).message}`);
  }
  return stop;
}
