import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import { type LoggedInUser, logIn } from '../../../src/accounts/identity/accounts.ts';
import { KNOWN_DEVICE_DAYS } from '../../../src/accounts/identity/known-devices.ts';
import { signUserToken, USER_TOKEN_SECONDS } from '../../../src/accounts/identity/user-token.ts';
import { userTokenKeysOf } from '../../../src/accounts/identity/user-token-keys.ts';
import type { Config, Environment } from '../../../src/platform/config/config.ts';
import type { AppContext } from '../../context.ts';
import { type ConsoleCookie, consoleCookieFor, sessionSecretOf } from '../../middleware/console-session.ts';

/** What every way of logging in answers (password, passkey, SSO): the spec's login response. */
export const loginResponse = z.object({
  success: z.literal(true),
  token: z
    .string()
    .describe(
      `A JWT (EdDSA, kid in its header; keys at /.well-known/jwks.json), valid ${USER_TOKEN_SECONDS} s.`,
    ),
  user: z.object({ id: z.number().int(), email: z.string(), companyName: z.string() }),
});

/** The login answer for a user, with a token for `environment`. */
export async function loginAnswer(
  em: EntityManager,
  config: Config,
  userId: number,
  environment: Environment,
): Promise<z.infer<typeof loginResponse>> {
  const [user] = await em.execute<{ email: string; company_id: string; company_name: string }[]>(
    `select u.email, u.company_id, c.name as company_name from users u join companies c on c.id = u.company_id
     where u.id = ?`,
    [userId],
  );
  return {
    success: true,
    token: signUserToken(userTokenKeysOf(config), {
      userId,
      email: user!.email,
      companyId: user!.company_id,
      environment,
    }),
    user: { id: userId, email: user!.email, companyName: user!.company_name },
  };
}

/**
 * The known-device cookie: HttpOnly, SameSite=Strict, Path=/ (the API's login and the console's sign-in both
 * read it), `__Host-` prefixed and Secure outside localhost, like the console's session cookie.
 */
export function knownDeviceCookieFor(publicBaseUrl: string): ConsoleCookie {
  const session = consoleCookieFor(publicBaseUrl);
  return { ...session, name: session.secure ? '__Host-dpp_device' : 'dpp_device' };
}

/**
 * E-mail and password login for a request: the client's address and known-device cookie count. The answer
 * carries the Set-Cookie value that renews the device cookie, for the caller to append after its own cookies
 * (clients that read the first one find the session).
 */
export async function passwordLogIn(
  ctx: AppContext,
  em: EntityManager,
  cookie: ConsoleCookie,
  body: { email: string; password: string },
): Promise<{ user: LoggedInUser; deviceCookie: string }> {
  const { user, deviceToken } = await logIn(em, {
    ...body,
    client: ctx.state.clientAddress,
    deviceToken: sessionSecretOf(ctx, cookie),
  });
  const attributes = ['Path=/', 'HttpOnly', 'SameSite=Strict', ...(cookie.secure ? ['Secure'] : [])];
  const maxAge = `Max-Age=${KNOWN_DEVICE_DAYS * 86_400}`;
  return { user, deviceCookie: [`${cookie.name}=${deviceToken}`, maxAge, ...attributes].join('; ') };
}
