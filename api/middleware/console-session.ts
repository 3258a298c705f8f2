import type { EntityManager } from '@mikro-orm/postgresql';
import { ABSOLUTE_SECONDS, checkConsoleSession } from '../../src/accounts/identity/console-sessions.ts';
import type { Environment } from '../../src/platform/config/config.ts';
import { setLazyScope } from '../../src/platform/db/tenant-scope.ts';
import type { AppContext } from '../context.ts';
import { Problem } from '../problem.ts';

/**
 * How the console's session cookie is written: HttpOnly (no script reads it), SameSite=Strict (no other site's
 * page sends it), Path=/ (the console calls /v1). Outside localhost it is Secure and named with the `__Host-`
 * prefix, which browsers accept only from https, without Domain and for Path=/ (no sibling subdomain can set
 * or shadow it).
 */
export interface ConsoleCookie {
  name: string;
  secure: boolean;
  /** The only Origin a cookie-authenticated write may come from (PUBLIC_BASE_URL's). */
  origin: string;
}

export const CONSOLE_COOKIE = 'dpp_console';
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

export function consoleCookieFor(publicBaseUrl: string): ConsoleCookie {
  const url = new URL(publicBaseUrl);
  const local = LOCAL_HOSTS.has(url.hostname) && url.protocol === 'http:';
  return { name: local ? CONSOLE_COOKIE : `__Host-${CONSOLE_COOKIE}`, secure: !local, origin: url.origin };
}

export function sessionCookieHeader(cookie: ConsoleCookie, secret: string | null): string {
  const attributes = ['Path=/', 'HttpOnly', 'SameSite=Strict', ...(cookie.secure ? ['Secure'] : [])];
  if (secret === null) return [`${cookie.name}=`, 'Max-Age=0', ...attributes].join('; ');
  return [`${cookie.name}=${secret}`, `Max-Age=${ABSOLUTE_SECONDS}`, ...attributes].join('; ');
}

/** The session secret the request's Cookie header carries, if any. */
export function sessionSecretOf(ctx: AppContext, cookie: ConsoleCookie): string | undefined {
  const header = ctx.get('cookie');
  if (header === '') return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === cookie.name) return part.slice(eq + 1).trim() || undefined;
  }
  return undefined;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * In development (PUBLIC_BASE_URL at a loopback name over http) the console may be opened at any loopback name
 * of the same port: http://127.0.0.1:3000/console as well as http://localhost:3000/console. Such a page's writes
 * are same-origin when the Origin it sends is a loopback origin naming the very Host the request went to.
 */
function isLoopbackSelf(ctx: AppContext, cookie: ConsoleCookie, origin: string): boolean {
  if (cookie.secure || origin === '' || origin === 'null') return false;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  return url.protocol === 'http:' && LOCAL_HOSTS.has(url.hostname) && url.host === ctx.get('host');
}

/**
 * CSRF defence for writes made with the cookie. SameSite=Strict already keeps other sites' requests
 * cookie-less, and every /v1 call needs the non-simple `x-service-env` header, which a cross-origin page can
 * only send after a CORS preflight the API never grants. This adds the Origin check for what SameSite does
 * not cover (a sibling subdomain is same-site): a write must come from PUBLIC_BASE_URL's origin (or, in
 * development, from the loopback origin the request was sent to).
 */
export function assertSameOrigin(ctx: AppContext, cookie: ConsoleCookie): void {
  if (SAFE_METHODS.has(ctx.method)) return;
  const origin = ctx.get('origin');
  const fetchSite = ctx.get('sec-fetch-site');
  if (origin === cookie.origin || (origin === '' && fetchSite === 'same-origin')) return;
  if (isLoopbackSelf(ctx, cookie, origin)) return;
  throw new Problem(
    403,
    'cross_origin_refused',
    'Writes with the console session must come from the console itself (Origin header).',
  );
}

/**
 * Authenticates the console's session cookie: the user acts in the environment the request names (the
 * console's test/live switch), with the role they have now. A renewed secret is sent back as Set-Cookie.
 */
export async function authenticateConsoleSession(
  ctx: AppContext,
  em: EntityManager,
  cookie: ConsoleCookie,
  secret: string,
  environment: Environment,
): Promise<void> {
  assertSameOrigin(ctx, cookie);
  const check = await checkConsoleSession(em.fork(), secret);
  if (!check.ok) {
    throw new Problem(401, 'session_ended', 'Your console session has ended: sign in again.', {
      headers: { 'Set-Cookie': sessionCookieHeader(cookie, null) },
    });
  }
  if (check.renewedSecret) ctx.append('Set-Cookie', sessionCookieHeader(cookie, check.renewedSecret));
  ctx.set('Cache-Control', 'no-store');
  const { user } = check;
  const scope = { companyId: user.companyId, environment };
  ctx.state.principal = {
    kind: 'user',
    userId: user.userId,
    email: user.email,
    companyId: user.companyId,
    environment,
    sessionId: user.sessionId,
    role: user.role,
  };
  setLazyScope(ctx.state, em, scope);
}
