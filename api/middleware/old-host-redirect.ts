import type { EntityManager } from '@mikro-orm/postgresql';
import type { Next } from 'koa';
import { hostOf, oldHosts } from '../../src/lifecycle/exit/old-hosts.ts';
import type { AppContext } from '../context.ts';

const REFRESH_MS = 30_000;
/** The first read of the list waits at most this long; later refreshes never hold a request. */
const FIRST_READ_MS = 1_000;

/**
 * The old host's links keep working (docs/exit.md "The old host"): once an import named the instance the
 * passports came from (`--old-host`), and that host's name points here, a request addressed to it is answered
 * 308 to the same path and query on PUBLIC_BASE_URL (a client keeps its method and body). Requests to this
 * instance's own host never look; for others the list is read in the background at most every 30 s, so a
 * slow or unavailable database never holds a request here (the last list holds meanwhile).
 */
export function oldHostRedirect(em: () => EntityManager, publicBaseUrl: string) {
  const own = hostOf(publicBaseUrl);
  let known: Set<string> | undefined;
  let readAt = Number.NEGATIVE_INFINITY;
  let reading: Promise<void> | undefined;
  const refresh = () => {
    readAt = Date.now();
    reading ??= oldHosts(em().fork())
      .then((hosts) => {
        known = hosts;
      })
      .catch(() => {})
      .finally(() => {
        reading = undefined;
      });
    return reading;
  };
  return async (ctx: AppContext, next: Next) => {
    const host = ctx.host.toLowerCase();
    if (host === own || host === '') return next();
    if (Date.now() - readAt > REFRESH_MS) {
      const pending = refresh();
      if (known === undefined) {
        await Promise.race([pending, new Promise((resolve) => setTimeout(resolve, FIRST_READ_MS).unref())]);
      }
    }
    if (!known?.has(host)) return next();
    ctx.status = 308;
    ctx.redirect(`${publicBaseUrl}${ctx.url}`);
  };
}
