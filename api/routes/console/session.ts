import { z } from 'zod';
import {
  createConsoleSession,
  IDLE_SECONDS,
  ROTATE_SECONDS,
  revokeConsoleSession,
  revokeUserConsoleSessions,
} from '../../../src/accounts/identity/console-sessions.ts';
import { ROLE_RIGHTS, ROLES, rightsOf, roleOf } from '../../../src/accounts/identity/roles.ts';
import type { AppContext } from '../../context.ts';
import { assertSameOrigin, consoleCookieFor, sessionCookieHeader } from '../../middleware/console-session.ts';
import { Problem } from '../../problem.ts';
import { defineRoute, type RouteSpec } from '../../route.ts';
import { knownDeviceCookieFor, passwordLogIn } from '../accounts/login-answer.ts';
import type { RouteDeps } from '../deps.ts';

export const sessionUser = z.object({
  id: z.number().int(),
  email: z.string(),
  companyName: z.string(),
  role: z.enum(ROLES),
  rights: z
    .array(z.enum(Object.keys(ROLE_RIGHTS) as [keyof typeof ROLE_RIGHTS]))
    .describe(
      'What the role may do (docs/identity.md): read; manageKeys (API keys, OAuth clients); manageWebhooks; ' +
        'managePassports (add, author, import, revoke, transfer passports; product settings); manageTeam; ' +
        'manageCompany (billing, compliance, SSO, disclosure grants). The console offers only these actions.',
    ),
});

const SESSION_NOTE =
  'The session lives in an HttpOnly, SameSite=Strict cookie (Secure and __Host- prefixed outside localhost) ' +
  `holding an opaque secret that is renewed every ${ROTATE_SECONDS / 60} minutes; it ends after ` +
  `${IDLE_SECONDS / 60} minutes without a request, 12 hours after sign-in, or at sign-out.`;

/** The web console's browser session: sign in, who am I, sign out, sign out everywhere. */
export function consoleSessionRoutes(deps: RouteDeps): RouteSpec[] {
  const cookie = consoleCookieFor(deps.config.publicBaseUrl);
  const deviceCookie = knownDeviceCookieFor(deps.config.publicBaseUrl);
  const clearCookie = (ctx: AppContext) => ctx.append('Set-Cookie', sessionCookieHeader(cookie, null));
  return [
    defineRoute({
      method: 'post',
      path: '/v1/console/session',
      operationId: 'consoleSignIn',
      summary: 'Sign in to the web console with e-mail and password: sets the session cookie.',
      description: `${SESSION_NOTE} The same rules as POST /v1/auth/login apply (throttling, known-device cookie, confirmed address, SSO required; a passkey does not turn the password off). The request must come from the console's origin (Origin header; in development any loopback name of the request's own Host).`,
      tags: ['console'],
      auth: 'none',
      body: z.object({ email: z.email().max(254), password: z.string().min(1).max(1024) }).strict(),
      responses: {
        200: {
          description: 'Signed in; the Set-Cookie header carries the session.',
          schema: z.object({ success: z.literal(true), user: sessionUser }),
        },
        401: { description: 'invalid_credentials: unknown address, wrong password, or too many attempts.' },
        403: { description: 'email_not_confirmed, sso_required or cross_origin_refused.' },
        429: { description: 'rate_limited.' },
      },
      handler: async (ctx: AppContext, { body }) => {
        assertSameOrigin(ctx, cookie);
        const em = deps.orm.em.fork();
        const { user, deviceCookie: renewed } = await passwordLogIn(ctx, em, deviceCookie, body);
        const role = await roleOf(em, user.id, user.companyId);
        if (role === null) throw new Problem(403, 'role_forbidden', 'This account has no role in a company.');
        const { secret } = await createConsoleSession(em, user.id);
        ctx.append('Set-Cookie', sessionCookieHeader(cookie, secret));
        ctx.append('Set-Cookie', renewed);
        ctx.set('Cache-Control', 'no-store');
        ctx.body = {
          success: true,
          user: {
            id: user.id,
            email: user.email,
            companyName: user.companyName,
            role,
            rights: rightsOf(role),
          },
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/console/session',
      operationId: 'consoleSession',
      summary: 'Who is signed in: the user, their company and role.',
      description: SESSION_NOTE,
      tags: ['console'],
      auth: 'user',
      responses: {
        200: {
          description: 'The signed-in user.',
          schema: z.object({
            success: z.literal(true),
            user: sessionUser,
            environment: z.enum(['live', 'test']),
          }),
        },
      },
      handler: async (ctx: AppContext) => {
        const principal = ctx.state.principal as Extract<AppContext['state']['principal'], { kind: 'user' }>;
        const em = deps.orm.em.fork();
        const [row] = await em.execute<{ name: string }[]>('select name from companies where id = ?', [
          principal.companyId,
        ]);
        const role = principal.role ?? (await roleOf(em, principal.userId, principal.companyId));
        if (role === null) throw new Problem(403, 'role_forbidden', 'This account has no role in a company.');
        ctx.body = {
          success: true,
          user: {
            id: principal.userId,
            email: principal.email,
            companyName: row?.name ?? '',
            role,
            rights: rightsOf(role),
          },
          environment: principal.environment,
        };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/v1/console/session',
      operationId: 'consoleSignOut',
      summary: 'Sign out of this browser: the session ends and its cookie is cleared.',
      tags: ['console'],
      auth: 'user',
      responses: {
        200: {
          description: 'Signed out.',
          schema: z.object({ success: z.literal(true), message: z.string() }),
        },
      },
      handler: async (ctx: AppContext) => {
        const principal = ctx.state.principal as { sessionId?: string };
        if (principal.sessionId) await revokeConsoleSession(deps.orm.em.fork(), principal.sessionId);
        clearCookie(ctx);
        ctx.body = { success: true, message: 'Signed out.' };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/v1/console/sessions',
      operationId: 'consoleSignOutEverywhere',
      summary: 'Sign out everywhere: every console session of the user ends at once.',
      description:
        'User tokens from POST /v1/auth/login are not sessions: they expire on their own within 15 minutes.',
      tags: ['console'],
      auth: 'user',
      responses: {
        200: {
          description: 'Every session ended.',
          schema: z.object({ success: z.literal(true), message: z.string(), ended: z.number().int() }),
        },
      },
      handler: async (ctx: AppContext) => {
        const principal = ctx.state.principal as { userId: number };
        const ended = await revokeUserConsoleSessions(deps.orm.em.fork(), principal.userId);
        clearCookie(ctx);
        ctx.body = { success: true, message: `Signed out of ${ended} session(s).`, ended };
      },
    }),
  ];
}
