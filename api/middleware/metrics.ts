import type { Next } from 'koa';
import {
  METRICS_CONTENT_TYPE,
  type MetricsAccess,
  type MetricsSource,
  metricsText,
  metricsVerdict,
} from '../../src/platform/observability/metrics-endpoint.ts';
import type { AppContext } from '../context.ts';
import { Problem } from '../problem.ts';

/**
 * GET /metrics: the Prometheus exposition of this process (src/platform/observability/metrics.ts) plus `sources`, for
 * operators only (who may read it: MetricsAccess). Outside the router: no API key, no environment header, no
 * rate limit (a scraper every few seconds), not in the OpenAPI document (it is not part of the API).
 */
export function metricsEndpoint(access: MetricsAccess, sources: MetricsSource[] = []) {
  return async (ctx: AppContext, next: Next) => {
    if (ctx.path !== '/metrics') return next();
    (ctx as AppContext & { _matchedRoute?: string })._matchedRoute = '/metrics';
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.set('Allow', 'GET, HEAD');
      throw new Problem(405, 'method_not_allowed', `${ctx.method} is not allowed here; use GET, HEAD.`);
    }
    const verdict = metricsVerdict(ctx.req, access);
    if (verdict === 'disabled') throw new Problem(404, 'not_found', `No resource at ${ctx.method} /metrics.`);
    if (verdict === 'unauthorized') {
      throw new Problem(
        401,
        'unauthorized',
        access.token
          ? 'Reading metrics needs the operators’ bearer token (METRICS_TOKEN).'
          : 'Metrics are served to local clients only until METRICS_TOKEN is set.',
        { headers: { 'WWW-Authenticate': 'Bearer' } },
      );
    }
    ctx.type = METRICS_CONTENT_TYPE;
    ctx.body = await metricsText(sources);
  };
}
