import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Mailer } from '../../adapters/mail/mailer.ts';
import { DomainError } from '../../platform/errors.ts';
import { assertSsoNotRequired } from '../sso/sso.ts';
import { normaliseEmail } from './email.ts';
import { issueConfirmationToken } from './email-tokens.ts';
import { hasPasskey } from './passkeys.ts';
import { hashPassword, passwordProblem, spendVerification, verifyPassword } from './passwords.ts';

/** Five wrong passwords in a row lock an account for 15 minutes. */
export const MAX_FAILED_LOGINS = 5;
export const LOCKOUT_MINUTES = 15;

export interface LoggedInUser {
  id: number;
  email: string;
  companyId: string;
  companyName: string;
}

/**
 * A new account: its company (named at registration), the user with an argon2id password hash, and a
 * confirmation e-mail with a single-use link. The mail is sent before the transaction commits, so an address
 * that cannot receive it leaves nothing behind and can register again.
 */
export async function registerAccount(
  em: EntityManager,
  mailer: Mailer,
  input: { email: string; password: string; companyName: string; confirmUrl: (token: string) => string },
): Promise<{ userId: number }> {
  const email = normaliseEmail(input.email);
  const weak = passwordProblem(input.password);
  if (weak) throw new DomainError('invalid', 'weak_password', weak);
  const passwordHash = await hashPassword(input.password);
  return em.fork().transactional(async (tx) => {
    const [taken] = await tx.execute<{ id: number }[]>('select id from users where email = ?', [email]);
    if (taken) {
      throw new DomainError(
        'conflict',
        'email_already_registered',
        'An account with this e-mail exists: log in.',
      );
    }
    const companyId = randomUUID();
    await tx.execute('insert into companies (id, name, created_at) values (?, ?, now())', [
      companyId,
      input.companyName,
    ]);
    const [user] = await tx.execute<{ id: number }[]>(
      // The company is new, so its first user owns it.
      `insert into users (company_id, email, password_hash, role, created_at) values (?, ?, ?, 'owner', now())
       returning id`,
      [companyId, email, passwordHash],
    );
    const token = await issueConfirmationToken(tx, user!.id);
    await mailer.send({
      to: email,
      subject: 'Confirm your e-mail address',
      text:
        `Welcome to the Digital Product Passport service.\n\nConfirm your e-mail address to log in:\n` +
        `${input.confirmUrl(token)}\n\nThe link works once, for 24 hours. If you did not register, ignore this mail.\n`,
    });
    return { userId: user!.id };
  });
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
