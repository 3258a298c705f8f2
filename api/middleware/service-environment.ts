import { ENVIRONMENTS, type Environment } from '../../src/platform/config/config.ts';
import type { AppContext } from '../context.ts';
import { Problem } from '../problem.ts';

export const ENVIRONMENT_HEADER = 'x-service-env';

/** Reads the required `x-service-env` header: `live` or `test`, nothing else. */
export function requireEnvironment(ctx: AppContext): Environment {
  const value = ctx.get(ENVIRONMENT_HEADER);
  if (value === '') {
    throw new Problem(
      400,
      'missing_environment',
      `The ${ENVIRONMENT_HEADER} header is required: send live or test.`,
    );
  }
  if (!(ENVIRONMENTS as readonly string[]).includes(value)) {
    throw new Problem(
      400,
      'invalid_environment',
      `The ${ENVIRONMENT_HEADER} header must be live or test (got "${value.slice(0, 40)}").`,
    );
  }
  ctx.state.environment = value as Environment;
  return value as Environment;
}
