import type { EntityManager } from '@mikro-orm/postgresql';
import type { Next } from 'koa';
import { hostOf, oldHosts } from '../../src/lifecycle/exit/old-hosts.ts';
import type { AppContext } from '../context.ts';

const REFRESH_MS = 30_000;

/**
 * The old host's links keep working (docs/exit.md "The old host"): once an import named the instance the
 * passports came from (`--old-host`), and that host's name points here, a request addressed to it is answered
 * 308 to the same path and query on PUBLIC_BASE_URL (a client keeps its method and body). The list is read
 * at most every 30 s; requests to any other host pass.
 */
export function oldHostRedirect(em: () => EntityManager, publicBaseUrl: string) {
  const own = hostOf(publicBaseUrl);
  let known: Set<string> = new Set();
  let readAt = Number.NEGATIVE_INFINITY;
  return async (ctx: AppContext, next: Next) => {
    const host = ctx.host.toLowerCase();
    if (host === own || host === '') return next();
    if (Date.now() - readAt > REFRESH_MS) {
      readAt = Date.now();
      // The database unavailable: the last list holds (the request itself will say what is wrong).
      known = await oldHosts(em().fork()).catch(() => known);
    }
    if (!known.has(host)) return next();
    ctx.status = 308;
    ctx.redirect(`${publicBaseUrl}${ctx.url}`);
  };
}
