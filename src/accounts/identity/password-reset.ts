import type { EntityManager } from '@mikro-orm/postgresql';
import type { Mailer } from '../../adapters/mail/mailer.ts';
import { DomainError } from '../../platform/errors.ts';
import { assertSsoNotRequired } from '../sso/sso.ts';
import { normaliseEmail } from './email.ts';
import { consumeResetToken, issueResetToken } from './email-tokens.ts';
import { clearAddress } from './login-throttle.ts';
import { hasPasskey } from './passkeys.ts';
import { hashPassword, passwordProblem } from './passwords.ts';

/**
 * How an account signs in, which decides what a reset can truthfully promise: a password (with passkeys beside
 * it or not), passkeys only (no password was ever set, e.g. an SSO-provisioned colleague after the company
 * stopped requiring SSO), or single sign-on, which no password can replace.
 */
export type AccountKind = 'password' | 'password_and_passkey' | 'passkey_only' | 'sso';

async function ssoRequired(em: EntityManager, email: string): Promise<boolean> {
  try {
    await assertSsoNotRequired(em, email);
    return false;
  } catch (error) {
    if (error instanceof DomainError && error.code === 'sso_required') return true;
    throw error;
  }
}

export async function accountKind(
  em: EntityManager,
  user: { id: number; email: string; password_hash: string | null },
): Promise<AccountKind> {
  if (await ssoRequired(em, user.email)) return 'sso';
  const passkey = await hasPasskey(em, user.id);
  if (user.password_hash === null) return passkey ? 'passkey_only' : 'password';
  return passkey ? 'password_and_passkey' : 'password';
}

const BESIDE: Record<Exclude<AccountKind, 'sso'>, string> = {
  password: '',
  password_and_passkey: 'Your passkeys keep working beside the new password.\n\n',
  passkey_only:
    'Your account signs in with a passkey and has no password yet: this link sets one, which then works ' +
    'beside your passkeys. Lost your passkey? You can also sign in with one of your recovery codes.\n\n',
};

function resetMail(kind: AccountKind, link: () => Promise<string>, signInUrl: string) {
  if (kind === 'sso') {
    return Promise.resolve({
      subject: 'Your company signs you in with single sign-on',
      text:
        'Someone asked to reset the password of your Digital Product Passport account. Your company signs ' +
        'its people in through its identity provider (single sign-on), so no password is used here and none ' +
        `can be set.\n\nSign in with “Use single sign-on (SSO)” at ${signInUrl}; if that fails, ask your ` +
        "company's IT admin.\n\nIf it was not you, ignore this mail: nothing was changed.\n",
    });
  }
  return link().then((url) => ({
    subject: kind === 'passkey_only' ? 'Set a password' : 'Reset your password',
    text:
      `Someone asked to reset the password of your Digital Product Passport account.\n\n${BESIDE[kind]}` +
      `Set a new password:\n${url}\n\nThe link works once, for one hour. If it was not you, ignore this ` +
      'mail: nothing changes.\n',
  }));
}

/**
 * Mails what a reset can do for the address's account (a link, or for single sign-on the truth that no password
 * is used); the caller's answer is the same either way (no enumeration), so unknown addresses are not mailed.
 */
export async function requestPasswordReset(
  em: EntityManager,
  mailer: Mailer,
  email: string,
  urls: { reset: (token: string) => string; signIn: string },
): Promise<void> {
  const address = normaliseEmail(email);
  const [user] = await em.execute<{ id: number; email: string; password_hash: string | null }[]>(
    'select id, email, password_hash from users where email = ?',
    [address],
  );
  if (!user) return;
  const kind = await accountKind(em, user);
  const mail = await resetMail(kind, async () => urls.reset(await issueResetToken(em, user.id)), urls.signIn);
  await mailer.send({ to: address, ...mail });
}

/** What a reset answers: how the account signs in from now on. */
const doneMessage = (kind: Exclude<AccountKind, 'sso'>) =>
  kind === 'password'
    ? 'Your password is set: sign in with it.'
    : 'Your password is set: sign in with it or with your passkey.';

/** Sets the new password; the answer says how the account signs in from now on. */
export async function resetPassword(
  em: EntityManager,
  token: string,
  password: string,
): Promise<{ message: string }> {
  const weak = passwordProblem(password);
  if (weak) throw new DomainError('invalid', 'weak_password', weak);
  const hash = await hashPassword(password);
  const outcome = await em.transactional(async (tx) => {
    const user = await consumeResetToken(tx, token, hash);
    if (user === null) return null;
    const kind = await accountKind(tx, { ...user, password_hash: hash });
    // A company that made single sign-on mandatory after the mail was sent: the password would not be accepted.
    if (kind === 'sso') {
      throw new DomainError(
        'forbidden',
        'sso_required',
        'Your company signs you in with single sign-on: no password is used here. Choose “Use single sign-on (SSO)” on the sign-in page.',
      );
    }
    return { email: user.email, kind };
  });
  if (outcome === null) {
    throw new DomainError(
      'gone',
      'reset_link_invalid',
      'This reset link is unknown, already used or expired.',
    );
  }
  // Whoever guessed at the old password, the new one is not delayed by it.
  await clearAddress(em, outcome.email);
  return { message: doneMessage(outcome.kind) };
}
