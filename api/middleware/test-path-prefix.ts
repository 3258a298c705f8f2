import type { Next } from 'koa';
import type { AppContext } from '../context.ts';
import { Problem } from '../problem.ts';
import { ENVIRONMENT_HEADER } from './service-environment.ts';

/**
 * The consumer-facing addresses a test passport has under `/test`: its Digital Link, verification page and
 * the AAS API (`/test/api/v3.0`) and the EN 18222 DPP reads (`/test/v1/dpps/…`, docs/en18222.md).
 */
const TEST_ADDRESS =
  /^\/test(\/(?:01|verify|api\/v3\.0|v1\/(?:dpps|dppsByProductId|dppIdsByProductIds|dppsByProductIds|dppsByIdAndDate))(?:\/.*)?)$/;

/**
 * Test passports open in a plain browser at their own addresses: `/test` in front of the live one
 * (`/test/01/{gtin}/21/{serial}`, `/test/verify/01/…`; GS1 Digital Link allows a path before the primary key).
 * A live address never shows a test passport (phones send no header, so they get live), and a test address
 * never shows a live one; a request that says otherwise in `x-service-env` is refused.
 */
export function testPathPrefix() {
  return async (ctx: AppContext, next: Next) => {
    const match = TEST_ADDRESS.exec(ctx.path);
    if (match) {
      const header = ctx.get(ENVIRONMENT_HEADER);
      if (header !== '' && header !== 'test') {
        throw new Problem(
          400,
          'environment_mismatch',
          `A /test address names the test environment; ${ENVIRONMENT_HEADER}: ${header.slice(0, 40)} contradicts it.`,
        );
      }
      ctx.state.pathEnvironment = 'test';
      ctx.path = match[1]!;
    }
    await next();
  };
}
