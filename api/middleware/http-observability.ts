import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Next } from 'koa';
import { observeHttpRequest } from '../../src/platform/observability/metrics.ts';
import type { AppContext } from '../context.ts';

const tracer = trace.getTracer('dpp-api');

/** The route pattern @koa/router matched (`/v1/dpp/passports/:tokenId`), never the raw path. */
function routeOf(ctx: AppContext): string | undefined {
  const matched = (ctx as AppContext & { _matchedRoute?: string | RegExp })._matchedRoute;
  return typeof matched === 'string' ? matched : undefined;
}

/**
 * One server span per request (a child of the caller's W3C `traceparent`, if any: the workflow and activity
 * spans of a mint hang under it) and one observation of dpp_http_request_duration_seconds, labelled by route
 * pattern and status, after the response is decided (errors included).
 */
export function httpObservability() {
  return async (ctx: AppContext, next: Next) => {
    const started = process.hrtime.bigint();
    const parent = propagation.extract(context.active(), ctx.headers);
    const span = tracer.startSpan(
      ctx.method,
      { kind: SpanKind.SERVER, attributes: { 'http.request.method': ctx.method, 'url.path': ctx.path } },
      parent,
    );
    try {
      await context.with(trace.setSpan(parent, span), next);
    } finally {
      const route = routeOf(ctx);
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      observeHttpRequest(ctx.method, route, ctx.status, seconds);
      if (route) {
        span.updateName(`${ctx.method} ${route}`);
        span.setAttribute('http.route', route);
      }
      span.setAttribute('http.response.status_code', ctx.status);
      if (ctx.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    }
  };
}
