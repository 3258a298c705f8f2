import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError } from '../../platform/errors.ts';
import { assertSsoNotRequired } from '../sso/sso.ts';
import { normaliseEmail } from './email.ts';
import { hasPasskey } from './passkeys.ts';
import { spendVerification, verifyPassword } from './passwords.ts';

/** Five wrong passwords in a row lock an account for 15 minutes. */
export const MAX_FAILED_LOGINS = 5;
export const LOCKOUT_MINUTES = 15;

export interface LoggedInUser {
  id: number;
  email: string;
  companyId: string;
  companyName: string;
}

interface UserRow {
  id: number;
  email: string;
  company_id: string;
  company_name: string;
  password_hash: string | null;
  email_confirmed_at: Date | null;
  locked_until: Date | null;
}

/**
 * E-mail and password. Unknown e-mails and wrong passwords get the same answer after the same work (a real
 * argon2id verification); five failures in a row lock the account for 15 minutes. An unconfirmed address is
 * told so only once the password is right.
 */
export async function logIn(em: EntityManager, email: string, password: string): Promise<LoggedInUser> {
  const [user] = await em.execute<UserRow[]>(
    `select u.id, u.email, u.company_id, c.name as company_name, u.password_hash, u.email_confirmed_at,
            u.locked_until
     from users u join companies c on c.id = u.company_id where u.email = ?`,
    [normaliseEmail(email)],
  );
  const wrong = () => new DomainError('unauthenticated', 'invalid_credentials', 'Wrong e-mail or password.');
  if (!user || user.password_hash === null) {
    await spendVerification(password);
    throw wrong();
  }
  if (user.locked_until && new Date(user.locked_until) > new Date()) {
    throw new DomainError(
      'locked',
      'account_locked',
      `Too many wrong passwords: try again after ${new Date(user.locked_until).toISOString()}.`,
    );
  }
  if (!(await verifyPassword(password, user.password_hash))) {
    await em.execute(
      `update users set
         failed_logins = case when failed_logins + 1 >= ? then 0 else failed_logins + 1 end,
         locked_until = case when failed_logins + 1 >= ? then now() + interval '${LOCKOUT_MINUTES} minutes'
                        else locked_until end
       where id = ?`,
      [MAX_FAILED_LOGINS, MAX_FAILED_LOGINS, user.id],
    );
    throw wrong();
  }
  await assertSsoNotRequired(em, user.email);
  if (await hasPasskey(em, user.id)) {
    throw new DomainError(
      'forbidden',
      'passkey_required',
      'This account logs in with its passkey: password login is turned off since a passkey was registered.',
    );
  }
  if (!user.email_confirmed_at) {
    throw new DomainError(
      'forbidden',
      'email_not_confirmed',
      'Confirm your e-mail address first: follow the link we sent you.',
    );
  }
  await em.execute('update users set failed_logins = 0, locked_until = null where id = ?', [user.id]);
  return { id: user.id, email: user.email, companyId: user.company_id, companyName: user.company_name };
}
