import Router from '@koa/router';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Next } from 'koa';
import type { AppContext, AppState } from './context.ts';
import { authenticateApiKey } from './middleware/api-key-auth.ts';
import { readJsonBody } from './middleware/json-body.ts';
import type { RateLimiter } from './middleware/rate-limit.ts';
import { requireEnvironment } from './middleware/service-environment.ts';
import { Problem } from './problem.ts';
import type { RouteSpec } from './route.ts';
import { validate } from './validation.ts';

export interface RouterDeps {
  orm: MikroORM;
  jsonBodyLimitBytes: number;
  rateLimiter: RateLimiter;
}

/** Mounts route specs: environment header, rate limit, authentication, body and parameter validation, handler. */
export function buildRouter(routes: RouteSpec[], deps: RouterDeps): Router<AppState, AppContext> {
  const router = new Router<AppState, AppContext>();
  for (const route of routes) {
    router[route.method](route.path, async (ctx: AppContext, _next: Next) => {
      const needsEnvironment = route.auth === 'apiKey' || route.path.startsWith('/v1/');
      const environment = needsEnvironment ? requireEnvironment(ctx) : undefined;
      if (route.auth === 'apiKey' && environment) {
        await authenticateApiKey(ctx, deps.orm.em, environment);
        deps.rateLimiter.take(ctx, `key:${ctx.state.principal!.apiKeyId}`);
      } else {
        deps.rateLimiter.take(ctx, `ip:${ctx.ip}`);
      }
      const params = route.params ? validate(route.params, ctx.params, 'path') : undefined;
      const query = route.query ? validate(route.query, ctx.query, 'query') : undefined;
      let body: unknown;
      if (route.body) {
        const raw = await readJsonBody(ctx, route.bodyLimitBytes ?? deps.jsonBodyLimitBytes);
        if (raw === undefined && !route.bodyOptional) {
          throw new Problem(400, 'validation_failed', 'A JSON request body is required.', {
            errors: [{ path: 'body', message: 'Required', code: 'invalid_type' }],
          });
        }
        body = validate(route.body, raw ?? {}, 'body');
      }
      await route.handler(ctx, { body, query, params });
    });
  }
  return router;
}

/** Sets 405 and Allow for a known path with an unsupported method; the problem handler writes the body. */
export function methodNotAllowed(router: Router<AppState, AppContext>) {
  return router.allowedMethods();
}
