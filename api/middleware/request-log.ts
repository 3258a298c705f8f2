import type { Next } from 'koa';
import type { Logger } from '../../src/platform/logging/logger.ts';
import type { AppContext } from '../context.ts';

/**
 * One log line per request, written after the response is decided (including error responses). `logger` is
 * the process's: a line below its level is not built at all.
 */
export function requestLog(logger?: Logger) {
  return async (ctx: AppContext, next: Next) => {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const level = ctx.status >= 500 ? 'error' : ctx.status >= 400 ? 'warn' : 'info';
      if (!logger || logger.isLevelEnabled(level)) {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        ctx.state.log[level](
          {
            method: ctx.method,
            path: ctx.path,
            status: ctx.status,
            ms: Math.round(ms * 10) / 10,
            ip: ctx.state.clientAddress,
            environment: ctx.state.environment,
            companyId: ctx.state.principal?.companyId,
            apiKeyId: ctx.state.principal?.kind === 'apiKey' ? ctx.state.principal.apiKeyId : undefined,
            userId: ctx.state.principal?.kind === 'user' ? ctx.state.principal.userId : undefined,
            oauthClientId: ctx.state.principal?.kind === 'oauth' ? ctx.state.principal.clientId : undefined,
          },
          'request',
        );
      }
    }
  };
}
