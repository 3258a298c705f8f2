import type { Next } from 'koa';
import { stableCode } from '../../src/adapters/payments/provider-errors.ts';
import { isDatabaseUnavailable } from '../../src/platform/db/availability.ts';
import { DomainError } from '../../src/platform/errors.ts';
import { aasResult, isAasApiPath } from '../../src/standards/aas/aas-result.ts';
import type { AppContext } from '../context.ts';
import { PROBLEM_CONTENT_TYPE, Problem, problemBody } from '../problem.ts';

/**
 * Turns every failure into an RFC 9457 problem body. Unknown errors become a 500 whose body names only the
 * request id; the stack goes to the log, never to the client.
 */
export function problemHandler() {
  return async (ctx: AppContext, next: Next) => {
    try {
      await next();
      if (ctx.body === undefined || ctx.body === null) {
        if (ctx.status === 404)
          throw new Problem(404, 'not_found', `No resource at ${ctx.method} ${ctx.path}.`);
        if (ctx.status === 405) {
          throw new Problem(
            405,
            'method_not_allowed',
            `${ctx.method} is not allowed here; use ${ctx.response.get('Allow')}.`,
          );
        }
        // The router answers 501 to methods no route has at all (TRACE, say); for the client that is the same
        // as a method this resource does not allow.
        if (ctx.status === 501) {
          throw new Problem(
            405,
            'method_not_allowed',
            `${ctx.method} is not allowed here; use ${ctx.response.get('Allow')}.`,
          );
        }
      }
    } catch (error) {
      const problem = toProblem(error);
      if (problem.code === 'database_unavailable') ctx.state.log.warn({ err: error }, 'database unavailable');
      else if (problem.status >= 500) ctx.state.log.error({ err: error }, 'unhandled error');
      ctx.status = problem.status;
      for (const [name, value] of Object.entries(problem.headers)) ctx.set(name, value);
      if (isAasApiPath(ctx.path)) {
        // The AAS API answers errors as its specification's Result (IDTA-01002 3.0 §11), not RFC 9457.
        ctx.type = 'application/json';
        ctx.body = aasResult(problem.status, problem.message, problem.errors);
        return;
      }
      ctx.type = PROBLEM_CONTENT_TYPE;
      ctx.body = problemBody(problem, ctx.state.requestId, ctx.originalUrl);
    }
  };
}

const DOMAIN_STATUS: Record<DomainError['kind'], number> = {
  invalid: 400,
  unauthenticated: 401,
  payment_required: 402,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  unsupported: 415,
  rejected: 422,
  locked: 429,
  unavailable: 503,
};

function toProblem(error: unknown): Problem {
  if (error instanceof Problem) return error;
  if (error instanceof DomainError) return new Problem(DOMAIN_STATUS[error.kind], error.code, error.message);
  if (isDatabaseUnavailable(error)) {
    return new Problem(
      503,
      'database_unavailable',
      'The database cannot be reached right now; retry shortly.',
      {
        headers: { 'Retry-After': '5' },
      },
    );
  }
  const stripe = stripeProblem(error);
  if (stripe) return stripe;
  const status = httpStatusOf(error);
  if (status === 404) return new Problem(404, 'not_found', 'Not found.');
  if (status === 405) return new Problem(405, 'method_not_allowed', 'Method not allowed.');
  if (status === 501) return new Problem(501, 'not_implemented', 'Method not implemented.');
  return new Problem(
    500,
    'internal_error',
    'An unexpected error occurred. Quote the request id when reporting it.',
  );
}

function httpStatusOf(error: unknown): number | undefined {
  if (typeof error === 'object' && error !== null && 'status' in error && typeof error.status === 'number') {
    return error.status;
  }
  return undefined;
}

/**
 * A Stripe SDK error on a synchronous payment call: Stripe refused the request (422, in our words with Stripe's
 * documented error code; never Stripe's message, which can quote our request and its Authorization header),
 * our keys are wrong (503, the operator must fix the configuration), or Stripe could not be reached (503).
 */
function stripeProblem(error: unknown): Problem | undefined {
  const type = (error as { type?: unknown } | null)?.type;
  if (typeof type !== 'string' || !type.startsWith('Stripe')) return undefined;
  if (type === 'StripeInvalidRequestError' || type === 'StripeCardError') {
    const code = stableCode((error as { code?: unknown }).code);
    return new Problem(
      422,
      'payment_provider_rejected',
      `The payment provider refused the request${code ? ` (provider code ${code})` : ''}.`,
    );
  }
  if (type === 'StripeAuthenticationError' || type === 'StripePermissionError') {
    return new Problem(
      503,
      'payments_misconfigured',
      'The payment provider refused our credentials; retry later.',
    );
  }
  return new Problem(
    503,
    'payment_provider_unavailable',
    'The payment provider cannot be reached; retry shortly.',
    {
      headers: { 'Retry-After': '10' },
    },
  );
}
