import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError } from '../../platform/errors.ts';
import { assertSsoNotRequired } from '../sso/sso.ts';
import { normaliseEmail } from './email.ts';
import { issueKnownDevice, knownDevice } from './known-devices.ts';
import { claimAttempt, settleSuccess, type ThrottleKey } from './login-throttle.ts';
import { spendVerification, verifyPassword } from './passwords.ts';

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
}

export interface LoginAttempt {
  email: string;
  password: string;
  /** The client's address (the rate limit's). */
  client: string;
  /** The known-device token the client kept from an earlier login, if any. */
  deviceToken?: string | undefined;
}

/** The same answer for an unknown address, a wrong password and an attempt that must wait. */
const wrong = () =>
  new DomainError(
    'unauthenticated',
    'invalid_credentials',
    'Wrong e-mail or password, or too many attempts in a row: check both, or try again in half a minute.',
  );

/**
 * E-mail and password. Failures slow guessing down (login-throttle.ts) but never lock the owner out: an
 * attempt from one of the account's known devices is throttled on that device's failures alone, any other on
 * the address's and the client's; an attempt that must wait is refused unchecked. Unknown addresses, wrong
 * passwords and waiting attempts get the same answer after the same work (a real argon2id verification). An
 * unconfirmed address is told so only once the password is right. The answer carries the device token to
 * keep (the one sent, while it is valid).
 */
export async function logIn(
  em: EntityManager,
  attempt: LoginAttempt,
): Promise<{ user: LoggedInUser; deviceToken: string }> {
  const email = normaliseEmail(attempt.email);
  const [user] = await em.execute<UserRow[]>(
    `select u.id, u.email, u.company_id, c.name as company_name, u.password_hash, u.email_confirmed_at
     from users u join companies c on c.id = u.company_id where u.email = ?`,
    [email],
  );
  // Looked up for unknown addresses too (as user 0), so the work does not differ.
  const device = attempt.deviceToken ? await knownDevice(em, attempt.deviceToken, user?.id ?? 0) : null;
  const keys: ThrottleKey[] = device
    ? [{ kind: 'device', tokenHash: device }]
    : [
        { kind: 'account', email },
        { kind: 'client', address: attempt.client },
      ];
  if (!(await claimAttempt(em, keys))) {
    await spendVerification(attempt.password);
    throw wrong();
  }
  const right =
    user && user.password_hash !== null
      ? await verifyPassword(attempt.password, user.password_hash)
      : await spendVerification(attempt.password).then(() => false);
  // A failure was counted when the attempt was claimed.
  if (!user || !right) throw wrong();
  await settleSuccess(em, keys);
  await assertSsoNotRequired(em, user.email);
  if (!user.email_confirmed_at) {
    throw new DomainError(
      'forbidden',
      'email_not_confirmed',
      'Confirm your e-mail address first: follow the link we sent you.',
    );
  }
  return {
    user: { id: user.id, email: user.email, companyId: user.company_id, companyName: user.company_name },
    deviceToken: device ? attempt.deviceToken! : await issueKnownDevice(em, user.id),
  };
}
