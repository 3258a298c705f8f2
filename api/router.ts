import type { MikroORM } from '@mikro-orm/postgresql';
import type { Next } from 'koa';
import type { UserTokenKeys } from '../src/accounts/identity/user-token.ts';
import type { AppContext } from './context.ts';
import { authenticateApiKey } from './middleware/api-key-auth.ts';
import {
  authenticateConsoleSession,
  type ConsoleCookie,
  sessionSecretOf,
} from './middleware/console-session.ts';
import { readJsonBody } from './middleware/json-body.ts';
import { authenticateReader } from './middleware/optional-auth.ts';
import type { RateLimiter } from './middleware/rate-limit.ts';
import { requireEnvironment } from './middleware/service-environment.ts';
import { authenticateUser } from './middleware/user-auth.ts';
import { Problem } from './problem.ts';
import type { RouteSpec } from './route.ts';
import { SegmentRouter } from './segment-router.ts';
import { checkInput, type InputLimits, validate } from './validation.ts';

export interface RouterDeps {
  orm: MikroORM;
  jsonBodyLimitBytes: number;
  bodyReadTimeoutMs: number;
  inputLimits: InputLimits;
  rateLimiter: RateLimiter;
  /** For the public pages outside /v1 (consumers scanning products), per client address. */
  publicRateLimiter: RateLimiter;
  /** Checks user tokens (routes with `auth: 'user'`). */
  userTokens: UserTokenKeys;
  /** The web console's session cookie, accepted by routes that take a user (when no Authorization is sent). */
  consoleCookie?: ConsoleCookie;
}

/** A JWT (three base64url parts, a JSON header): a user token rather than an API key or access token. */
function looksLikeUserToken(ctx: AppContext): boolean {
  return /^Bearer\s+eyJ[\w-]*\.[\w-]+\.[\w-]+\s*$/i.test(ctx.get('authorization'));
}

/** What consumers' phones reach (resolver, verification page, DID documents): not /v1, not health checks. */
function isPublicPage(route: RouteSpec): boolean {
  return !route.path.startsWith('/v1/') && route.path !== '/healthz' && route.path !== '/readyz';
}

/**
 * Environment header, authentication and rate limit. A valid API key spends from its own bucket; everything
 * else spends from the client address's bucket: calls that need no key, and calls whose key (or environment
 * header) is refused, so a flood of wrong keys is answered 429 like any other unauthenticated flood.
 */
async function admit(route: RouteSpec, ctx: AppContext, deps: RouterDeps): Promise<void> {
  const addressBucket = `ip:${ctx.state.clientAddress}`;
  const takesUser = route.auth === 'user' || route.auth === 'apiKeyOrUser';
  const sessionSecret =
    takesUser && deps.consoleCookie && ctx.get('authorization') === ''
      ? sessionSecretOf(ctx, deps.consoleCookie)
      : undefined;
  if (sessionSecret !== undefined) {
    try {
      const environment = requireEnvironment(ctx);
      await authenticateConsoleSession(ctx, deps.orm.em, deps.consoleCookie!, sessionSecret, environment);
    } catch (error) {
      if (error instanceof Problem) await deps.rateLimiter.take(ctx, addressBucket);
      throw error;
    }
    const principal = ctx.state.principal as { userId: number };
    await deps.rateLimiter.take(ctx, `user:${principal.userId}`);
    return;
  }
  if (route.auth === 'user' || (route.auth === 'apiKeyOrUser' && looksLikeUserToken(ctx))) {
    try {
      authenticateUser(ctx, deps.orm.em, deps.userTokens, requireEnvironment(ctx));
    } catch (error) {
      if (error instanceof Problem) await deps.rateLimiter.take(ctx, addressBucket);
      throw error;
    }
    const principal = ctx.state.principal as { userId: number };
    await deps.rateLimiter.take(ctx, `user:${principal.userId}`);
    return;
  }
  if (route.auth === 'none') {
    await (isPublicPage(route) ? deps.publicRateLimiter : deps.rateLimiter).take(ctx, addressBucket);
    if (route.path.startsWith('/v1/') && route.environmentHeader !== false) requireEnvironment(ctx);
    // A read that takes a credential checks it before its handler looks anything up (issue 33 item 6).
    if (route.optionalCredential) await authenticateReader(ctx, deps);
    return;
  }
  try {
    const environment = requireEnvironment(ctx);
    await authenticateApiKey(ctx, deps.orm.em, environment);
  } catch (error) {
    // Over the address's budget this throws 429 in place of the refusal.
    if (error instanceof Problem) await deps.rateLimiter.take(ctx, addressBucket);
    throw error;
  }
  const principal = ctx.state.principal!;
  await deps.rateLimiter.take(
    ctx,
    principal.kind === 'oauth'
      ? `oauth:${principal.clientId}`
      : `key:${(principal as { apiKeyId: string }).apiKeyId}`,
  );
}

/**
 * Mounts route specs: admission (environment header, authentication, rate limit), then path, query and body,
 * each first through the shared input gate (`checkInput`: no NUL or unpaired surrogates in any string or key,
 * bounded nesting and object size) and then through its schema; then the handler.
 */
export function buildRouter(routes: RouteSpec[], deps: RouterDeps): SegmentRouter {
  const limits = deps.inputLimits;
  return new SegmentRouter(routes, (router, route) => {
    router[route.method](route.path, async (ctx: AppContext, _next: Next) => {
      await admit(route, ctx, deps);
      const params = route.params
        ? validate(route.params, checkInput(ctx.params, 'path', limits), 'path')
        : undefined;
      const query = route.query
        ? validate(route.query, checkInput(ctx.query, 'query', limits), 'query')
        : undefined;
      let body: unknown;
      if (route.body) {
        const raw = await readJsonBody(ctx, {
          bytes: route.bodyLimitBytes ?? deps.jsonBodyLimitBytes,
          timeoutMs: deps.bodyReadTimeoutMs,
          form: route.formBody === true,
        });
        if (raw === undefined && !route.bodyOptional) {
          throw new Problem(400, 'validation_failed', 'A JSON request body is required.', {
            errors: [{ path: 'body', message: 'Required', code: 'invalid_type' }],
          });
        }
        body = validate(route.body, checkInput(raw ?? {}, 'body', limits), 'body');
      }
      await route.handler(ctx, { body, query, params });
    });
  });
}

/** Sets 405 and Allow for a known path with an unsupported method; the problem handler writes the body. */
export function methodNotAllowed(router: SegmentRouter) {
  return router.allowedMethods();
}
