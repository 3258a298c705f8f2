import type { TestProject } from 'vitest/node';
import { startNpmStart } from '../journeys/global-setup.ts';

/**
 * `npm run conformance` checks the service exactly as `npm start` runs it: the journeys' launcher (same
 * command, defaults, banner), without the browser the journeys need. Tests read it with `stack()` from
 * test/journeys/client.ts.
 */
export default function setup(project: TestProject): Promise<() => Promise<void>> {
  return startNpmStart(project, 'conformance');
}
