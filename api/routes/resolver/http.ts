import { etagOf } from '../../../src/passport/views/etag.ts';
import type { Environment } from '../../../src/platform/config/config.ts';
import type { AppContext } from '../../context.ts';
import { ENVIRONMENT_HEADER, requireEnvironment } from '../../middleware/service-environment.ts';

/**
 * The environment of a public call: test under a /test address (api/middleware/test-path-prefix.ts), else
 * `x-service-env` when sent (live or test, anything else → 400), else live. Consumers' phones open a Digital
 * Link without custom headers, so live is what a scan of a live passport resolves; test passports have /test
 * addresses of their own, which every link the service hands out for them uses.
 */
export function publicEnvironment(ctx: AppContext): Environment {
  if (ctx.state.pathEnvironment) return ctx.state.pathEnvironment;
  return ctx.get(ENVIRONMENT_HEADER) === '' ? 'live' : requireEnvironment(ctx);
}

/** Public answers are cacheable for a minute; a passport changes with its events, taps and status. */
export const PUBLIC_CACHE = 'public, max-age=60';

export { etagOf };

/** Open CORS for public documents: any page may read them (GS1 resolvers SHALL support CORS). */
export function allowAnyOrigin(ctx: AppContext): void {
  ctx.set('Access-Control-Allow-Origin', '*');
  ctx.set('Access-Control-Expose-Headers', 'ETag, Link, Location, Vary');
}

/**
 * If-None-Match as an origin server evaluates it (RFC 9110 13.1.2, weak comparison): `*` or any listed tag
 * equal to ours. (Koa's `fresh` also answers "stale" to a request carrying Cache-Control: no-cache, which
 * fetch() adds to every conditional request it is given.)
 */
export function noneMatch(ctx: AppContext, etag: string): boolean {
  const header = ctx.get('If-None-Match');
  if (header === '') return false;
  const ours = etag.replace(/^W\//, '');
  return header.split(',').some((tag) => {
    const value = tag.trim();
    return value === '*' || value.replace(/^W\//, '') === ours;
  });
}

/**
 * Sends a text body with its ETag and Cache-Control; a matching If-None-Match is answered 304 without the
 * body (HEAD never carries one: Koa drops it).
 */
export function sendText(
  ctx: AppContext,
  body: string,
  contentType: string,
  cacheControl = PUBLIC_CACHE,
  etag = etagOf(body),
): void {
  ctx.status = 200;
  ctx.set('Cache-Control', cacheControl);
  ctx.set('ETag', etag);
  // Set as a header (Koa keeps it): no media-type lookup per request.
  // A JWT (application/vc+jwt) is ASCII by definition: its media type has no charset parameter.
  const charset = contentType.includes(';') || contentType.endsWith('+jwt') ? '' : '; charset=utf-8';
  ctx.set('Content-Type', `${contentType}${charset}`);
  if (noneMatch(ctx, etag)) {
    ctx.status = 304;
    return;
  }
  ctx.body = body;
}

// The resolver's own parameters; a tap's SUN parameters are consumed by the tap check.
const RESOLVER_PARAMETERS = new Set(['format', 'linktype', 'picc_data', 'e', 'cmac', 'c', 'enc']);

/**
 * A redirect target with the request's other query parameters passed on (GS1 resolvers pass the query string
 * on when redirecting): everything but the resolver's own parameters, in their order.
 */
export function withPassedOnQuery(ctx: AppContext, target: string): string {
  const passed = new URLSearchParams();
  for (const [name, value] of new URLSearchParams(ctx.querystring)) {
    if (!RESOLVER_PARAMETERS.has(name.toLowerCase())) passed.append(name, value);
  }
  const query = passed.toString();
  if (query === '') return target;
  const hash = target.indexOf('#');
  const [base, fragment] = hash >= 0 ? [target.slice(0, hash), target.slice(hash)] : [target, ''];
  return `${base}${base.includes('?') ? '&' : '?'}${query}${fragment}`;
}

/** A 307 with a Location: the method and body are kept, and the redirect is not taken as permanent. */
export function temporaryRedirect(ctx: AppContext, location: string, cacheControl: string): void {
  ctx.status = 307;
  ctx.set('Location', location);
  ctx.set('Cache-Control', cacheControl);
  ctx.set('ETag', etagOf(location));
  ctx.body = '';
}
