import { randomUUID } from 'node:crypto';
import type { Next } from 'koa';
import type { Logger } from '../../src/platform/logging/logger.ts';
import type { AppContext } from '../context.ts';

const CLIENT_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Accepts a well-formed client `x-request-id` or makes one; echoes it and binds it to the request's logger. */
export function requestId(logger: Logger) {
  return async (ctx: AppContext, next: Next) => {
    const given = ctx.get('x-request-id');
    const id = CLIENT_ID.test(given) ? given : randomUUID();
    ctx.state.requestId = id;
    ctx.state.log = logger.child({ requestId: id });
    ctx.set('x-request-id', id);
    await next();
  };
}
