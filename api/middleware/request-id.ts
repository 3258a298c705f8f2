import { randomUUID } from 'node:crypto';
import type { Next } from 'koa';
import type { Logger } from '../../src/platform/logging/logger.ts';
import type { AppContext } from '../context.ts';

const CLIENT_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * A request's logger, made when first used: most requests (a scan of a passport) log nothing at the
 * configured level, and a child logger costs more than the rest of this middleware.
 */
class RequestLogger {
  readonly #logger: Logger;
  readonly #requestId: string;
  #log: Logger | undefined;

  constructor(logger: Logger, requestId: string) {
    this.#logger = logger;
    this.#requestId = requestId;
  }

  get log(): Logger {
    this.#log ??= this.#logger.child({ requestId: this.#requestId });
    return this.#log;
  }

  set log(value: Logger) {
    this.#log = value;
  }
}

/** Accepts a well-formed client `x-request-id` or makes one; echoes it and binds it to the request's logger. */
export function requestId(logger: Logger) {
  return async (ctx: AppContext, next: Next) => {
    const given = ctx.get('x-request-id');
    const id = CLIENT_ID.test(given) ? given : randomUUID();
    // The state's other members are set on it as before; `log` is the class's accessor.
    ctx.state = Object.assign(new RequestLogger(logger, id) as unknown as AppContext['state'], ctx.state, {
      requestId: id,
    });
    ctx.set('x-request-id', id);
    await next();
  };
}
