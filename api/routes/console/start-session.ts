import type { EntityManager } from '@mikro-orm/postgresql';
import { createConsoleSession } from '../../../src/accounts/identity/console-sessions.ts';
import { type Right, type Role, rightsOf, roleOf } from '../../../src/accounts/identity/roles.ts';
import type { AppContext } from '../../context.ts';
import { type ConsoleCookie, sessionCookieHeader } from '../../middleware/console-session.ts';
import { Problem } from '../../problem.ts';

export interface ConsoleUser {
  id: number;
  email: string;
  companyName: string;
  role: Role;
  /** The rights the role carries (ROLE_RIGHTS): what the console offers this person. */
  rights: Right[];
}

/**
 * Starts a console session for a person whose sign-in was just proven (password, passkey or SSO): the session
 * row, its cookie on the answer, and who signed in.
 */
export async function startConsoleSession(
  ctx: AppContext,
  em: EntityManager,
  cookie: ConsoleCookie,
  userId: number,
): Promise<ConsoleUser> {
  const [user] = await em.execute<{ email: string; company_id: string; company_name: string }[]>(
    `select u.email, u.company_id, c.name as company_name from users u join companies c on c.id = u.company_id
     where u.id = ?`,
    [userId],
  );
  const role = user ? await roleOf(em, userId, user.company_id) : null;
  if (!user || role === null) {
    throw new Problem(403, 'role_forbidden', 'This account has no role in a company.');
  }
  const { secret } = await createConsoleSession(em, userId);
  ctx.append('Set-Cookie', sessionCookieHeader(cookie, secret));
  ctx.set('Cache-Control', 'no-store');
  return { id: userId, email: user.email, companyName: user.company_name, role, rights: rightsOf(role) };
}
