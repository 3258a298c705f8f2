import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Mailer } from '../../adapters/mail/mailer.ts';
import { DomainError } from '../../platform/errors.ts';
import { normaliseEmail } from './email.ts';
import { issueConfirmationToken } from './email-tokens.ts';
import { hashPassword, passwordProblem } from './passwords.ts';

/**
 * A new account: its company (named at registration), the user with an argon2id password hash, and a
 * confirmation e-mail with a single-use link. The mail is sent before the transaction commits, so an address
 * that cannot receive it leaves nothing behind and can register again.
 *
 * An address that already has an account gets the same answer after the same work, so registration does not
 * tell who has an account: nothing is created or changed, the owner is mailed instead, and the user id is
 * drawn from the same sequence (it belongs to no account; ids have gaps anyway).
 */
export async function registerAccount(
  em: EntityManager,
  mailer: Mailer,
  input: {
    email: string;
    password: string;
    companyName: string;
    confirmUrl: (token: string) => string;
    /** Where the owner of a known address can ask for a new password. */
    forgotUrl: string;
  },
): Promise<{ userId: number }> {
  const email = normaliseEmail(input.email);
  const weak = passwordProblem(input.password);
  if (weak) throw new DomainError('invalid', 'weak_password', weak);
  const passwordHash = await hashPassword(input.password);
  return em.fork().transactional(async (tx) => {
    const [taken] = await tx.execute<{ id: number }[]>('select id from users where email = ?', [email]);
    if (taken) {
      await mailer.send({
        to: email,
        subject: 'Someone tried to register with your address',
        text:
          `Someone tried to register with your address at the Digital Product Passport service, which already ` +
          `has an account. Nothing was changed.\n\nIf it was you: log in with your password, or set a new one ` +
          `at\n${input.forgotUrl}\n\nIf it was not you, ignore this mail.\n`,
      });
      const [unused] = await tx.execute<{ id: number }[]>(
        `select nextval(pg_get_serial_sequence('users', 'id'))::int as id`,
      );
      return { userId: unused!.id };
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
