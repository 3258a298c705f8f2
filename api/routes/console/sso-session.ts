import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import { discoverLogin, type SsoEndpoints } from '../../../src/accounts/sso/sso.ts';
import { DomainError } from '../../../src/platform/errors.ts';
import type { AppContext } from '../../context.ts';
import { assertSameOrigin, type ConsoleCookie, consoleCookieFor } from '../../middleware/console-session.ts';
import { Problem } from '../../problem.ts';
import { defineRoute, type RouteSpec } from '../../route.ts';
import type { RouteDeps } from '../deps.ts';
import { startConsoleSession } from './start-session.ts';

/** An SSO login started from the console lasts as long as the login state itself (sso.ts: 10 minutes). */
const BINDING_SECONDS = 600;

/**
 * The cookie that ties an SSO login to the browser that started it from the console: it holds the login's
 * state, only our SSO callbacks receive it (Path), script cannot read it. A callback whose state matches it
 * starts a console session; without it the callback answers as the API always did (a token), so nobody can
 * push their own SSO login into someone else's browser (login CSRF). SameSite=None because the identity
 * provider brings the browser back cross-site (a SAML IdP by a form POST, which a Lax cookie would miss);
 * Secure, which browsers accept on http://localhost as well.
 */
function bindingCookieName(cookie: ConsoleCookie): string {
  return cookie.secure ? '__Secure-dpp_console_sso' : 'dpp_console_sso';
}

function bindingCookieHeader(cookie: ConsoleCookie, state: string | null): string {
  const attributes = ['Path=/v1/auth/sso', 'HttpOnly', 'SameSite=None', 'Secure'];
  const name = bindingCookieName(cookie);
  return state === null
    ? [`${name}=`, 'Max-Age=0', ...attributes].join('; ')
    : [`${name}=${state}`, `Max-Age=${BINDING_SECONDS}`, ...attributes].join('; ');
}

function bindingOf(ctx: AppContext, cookie: ConsoleCookie): string | undefined {
  const name = bindingCookieName(cookie);
  for (const part of ctx.get('cookie').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim() || undefined;
  }
  return undefined;
}

/** True when this browser started the login `state` from the console (the callback then ends in the console). */
export function startedFromConsole(ctx: AppContext, publicBaseUrl: string, state: string): boolean {
  const binding = bindingOf(ctx, consoleCookieFor(publicBaseUrl));
  return binding !== undefined && binding === state;
}

/**
 * Ends a console-started SSO login: a console session and a redirect into the console, or, when the provider's
 * answer is refused, back to the sign-in page with the reason's code (never a token, never a raw error page).
 */
export async function finishConsoleSso(
  ctx: AppContext,
  em: EntityManager,
  publicBaseUrl: string,
  complete: () => Promise<{ userId: number }>,
): Promise<void> {
  const cookie = consoleCookieFor(publicBaseUrl);
  ctx.append('Set-Cookie', bindingCookieHeader(cookie, null));
  ctx.set('Cache-Control', 'no-store');
  let location = '/console/';
  try {
    const { userId } = await complete();
    await startConsoleSession(ctx, em, cookie, userId);
  } catch (error) {
    // A refusal (the provider's answer, the login state, the account) is the person's to see on the sign-in
    // page; anything else is the service's failure and goes to the problem handler (logged, 5xx).
    const refusal = error instanceof DomainError || (error instanceof Problem && error.status < 500);
    if (!refusal) throw error;
    location = `/console/sign-in?sso-error=${encodeURIComponent(error.code)}`;
  }
  ctx.status = 303;
  ctx.set('Location', location);
  ctx.body = '';
}

/** Discovery from the console's sign-in page: where the e-mail signs in, and the binding cookie for SSO. */
export function consoleSsoSessionRoutes(deps: RouteDeps, endpoints: SsoEndpoints): RouteSpec[] {
  const cookie = consoleCookieFor(deps.config.publicBaseUrl);
  return [
    defineRoute({
      method: 'post',
      path: '/v1/console/session/sso',
      operationId: 'consoleSsoStart',
      summary: 'Start signing in to the web console: SSO for the e-mail’s company, or password/passkey here.',
      description:
        'As POST /v1/auth/sso/discover; for SSO it also sets a short-lived HttpOnly cookie (path /v1/auth/sso) ' +
        'holding the login’s state. The identity provider’s answer at the OIDC callback or SAML ACS then starts ' +
        'a console session and redirects (303) to /console/ — or to /console/sign-in?sso-error=<code> when it is ' +
        'refused. Without that cookie the callbacks answer the token as before. The request must come from the ' +
        'console’s origin (Origin header).',
      tags: ['console'],
      auth: 'none',
      body: z.object({ email: z.email().max(254) }).strict(),
      responses: {
        200: {
          description: 'method sso with the provider’s URL to open, or password_or_passkey.',
          schema: z.object({
            success: z.literal(true),
            method: z.enum(['sso', 'password_or_passkey']),
            protocol: z.enum(['oidc', 'saml']).optional(),
            authorizationUrl: z.string().optional(),
          }),
        },
        403: { description: 'cross_origin_refused.' },
      },
      handler: async (ctx: AppContext, { body }) => {
        assertSameOrigin(ctx, cookie);
        const found = await discoverLogin(deps.orm.em.fork(), body.email, ctx.state.environment!, endpoints);
        ctx.set('Cache-Control', 'no-store');
        if (found.method === 'sso') {
          const url = new URL(found.authorizationUrl);
          const state = url.searchParams.get(found.protocol === 'saml' ? 'RelayState' : 'state');
          if (state) ctx.append('Set-Cookie', bindingCookieHeader(cookie, state));
        }
        ctx.body = { success: true, ...found };
      },
    }),
  ];
}
