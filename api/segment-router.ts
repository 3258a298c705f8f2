import Router from '@koa/router';
import type { Middleware, Next } from 'koa';
import type { AppContext, AppState } from './context.ts';
import type { RouteSpec } from './route.ts';

type AppRouter = Router<AppState, AppContext>;

/** A first path segment written out (`v1`, `01`, `verify`), as @koa/router matches it: any case. */
const LITERAL = /^[A-Za-z0-9._~-]*$/;

function literalSegment(path: string): string | undefined {
  const segment = path.split('/', 2)[1] ?? '';
  return LITERAL.test(segment) ? segment.toLowerCase() : undefined;
}

/**
 * The routes grouped by their first path segment, one @koa/router per group. @koa/router tests a request's
 * path against every route it holds, in order; a public GET (a scan of a passport) paid for the few hundred
 * /v1 routes' regular expressions on every request. Here a request meets only the routes that can match it:
 * its own segment's, and those whose first segment is a parameter (in every group, in their order). A path
 * whose segment no route has meets an empty router, so 404, 405 and 501 answers are those of one router.
 */
export class SegmentRouter {
  readonly #groups = new Map<string, Middleware<AppState, AppContext>>();
  readonly #none: AppRouter;
  readonly #noneRoutes: Middleware<AppState, AppContext>;

  constructor(routes: readonly RouteSpec[], mount: (router: AppRouter, route: RouteSpec) => void) {
    const segments = new Set(routes.flatMap((route) => literalSegment(route.path) ?? []));
    for (const segment of segments) {
      const router = new Router<AppState, AppContext>();
      for (const route of routes) {
        const own = literalSegment(route.path);
        if (own === undefined || own === segment) mount(router, route);
      }
      this.#groups.set(segment, router.routes() as Middleware<AppState, AppContext>);
    }
    this.#none = new Router<AppState, AppContext>();
    for (const route of routes) if (literalSegment(route.path) === undefined) mount(this.#none, route);
    this.#noneRoutes = this.#none.routes() as Middleware<AppState, AppContext>;
  }

  routes(): Middleware<AppState, AppContext> {
    return (ctx: AppContext, next: Next) => {
      const segment = ctx.path.split('/', 2)[1]?.toLowerCase() ?? '';
      return (this.#groups.get(segment) ?? this.#noneRoutes)(ctx, next);
    };
  }

  /** 405 with Allow for a known path and another method (every group's router implements the same methods). */
  allowedMethods(): Middleware<AppState, AppContext> {
    return this.#none.allowedMethods() as Middleware<AppState, AppContext>;
  }
}
