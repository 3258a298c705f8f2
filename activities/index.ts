import type { Environment } from '../src/config/config.ts';
import type { Orm } from '../src/db/orm.ts';
import type { Logger } from '../src/logging/logger.ts';

/** What activities of one environment may touch. Tests pass real test doubles (a test database, anvil…). */
export interface ActivityDeps {
  environment: Environment;
  orm: Orm;
  logger: Logger;
}

/** All activities of one environment's task queue, built from injected dependencies. */
export function createActivities(_deps: ActivityDeps) {
  return {};
}

export type Activities = ReturnType<typeof createActivities>;
