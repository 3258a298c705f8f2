import type { EntityManager } from '@mikro-orm/postgresql';
import type { Mailer } from '../../adapters/mail/mailer.ts';
import { DomainError } from '../../platform/errors.ts';
import { normaliseEmail } from './email.ts';
import { consumeResetToken, issueResetToken } from './email-tokens.ts';
import { clearAddress } from './login-throttle.ts';
import { hashPassword, passwordProblem } from './passwords.ts';

/**
 * Mails a reset link when the address has an account; the caller's answer is the same either way (no
 * enumeration), so unknown addresses are simply not mailed.
 */
export async function requestPasswordReset(
  em: EntityManager,
  mailer: Mailer,
  email: string,
  resetUrl: (token: string) => string,
): Promise<void> {
  const address = normaliseEmail(email);
  const [user] = await em.execute<{ id: number }[]>('select id from users where email = ?', [address]);
  if (!user) return;
  const token = await issueResetToken(em, user.id);
  await mailer.send({
    to: address,
    subject: 'Reset your password',
    text:
      `Someone asked to reset the password of your Digital Product Passport account.\n\nSet a new one:\n` +
      `${resetUrl(token)}\n\nThe link works once, for one hour. If it was not you, ignore this mail: your ` +
      `password stays as it is.\n`,
  });
}

export async function resetPassword(em: EntityManager, token: string, password: string): Promise<void> {
  const weak = passwordProblem(password);
  if (weak) throw new DomainError('invalid', 'weak_password', weak);
  const user = await consumeResetToken(em, token, await hashPassword(password));
  if (user === null) {
    throw new DomainError(
      'gone',
      'reset_link_invalid',
      'This reset link is unknown, already used or expired.',
    );
  }
  // Whoever guessed at the old password, the new one is not delayed by it.
  await clearAddress(em, user.email);
}
