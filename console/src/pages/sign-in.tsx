import { type FormEvent, useState } from 'react';
import '../account.css';
import { passkeys, recoveryCodes, sso } from '../account-api.ts';
import { ApiError, type Environment, type SessionUser, session } from '../api.ts';
import { ErrorAlert } from '../components/error-alert.tsx';
import { messageOf } from '../hooks/use-failure.ts';
import { usePageHeading } from '../hooks/use-page-heading.ts';
import { linkHandler, navigate } from '../router.ts';
import { passkeyAddressProblem, passkeysSupported, signWithPasskey } from '../webauthn.ts';
import { PasskeyAddressNote } from './passkey-address-note.tsx';
import { RECOVERED_KEY } from './security.tsx';

interface SignInProps {
  environment: Environment;
  onSignedIn: (user: SessionUser) => void;
}

/** What the confirmation link (GET /v1/auth/confirm, opened from the mail) says when it sends the browser here. */
function confirmationOutcome(): { ok: boolean; text: string } | null {
  const confirmed = new URLSearchParams(window.location.search).get('email-confirmed');
  if (confirmed === 'true') return { ok: true, text: 'Your e-mail address is confirmed: sign in.' };
  if (confirmed === 'false') {
    return {
      ok: false,
      text: 'This confirmation link is unknown, already used or expired. If you confirmed before, sign in.',
    };
  }
  return null;
}

/** Why a single sign-on came back without a session (the API's callback names the code, never details). */
const SSO_ERRORS: Record<string, string> = {
  sso_state_invalid: 'That single sign-on took too long or was already used: start again.',
  email_in_other_company: 'This address has an account in another company, so single sign-on cannot use it.',
  role_forbidden: 'This account has no role in a company.',
};

function ssoOutcome(): string | null {
  const code = new URLSearchParams(window.location.search).get('sso-error');
  if (code === null) return null;
  return (
    SSO_ERRORS[code] ?? 'Your identity provider did not confirm the sign-in: try again or ask your admin.'
  );
}

type Way = 'password' | 'passkey' | 'sso' | 'recovery';

/**
 * Sign-in: e-mail and password, or with the same e-mail a passkey or the company's single sign-on (found by
 * the address's domain). Every way ends in the same HttpOnly session cookie.
 */
export function SignIn({ environment, onSignedIn }: SignInProps) {
  const [confirmation] = useState(confirmationOutcome);
  const [ssoFailure] = useState(ssoOutcome);
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState<Way | null>(null);
  const [error, setError] = useState<string | null>(null);
  /** Which way failed: a recovery code's refusal shows beside its own field. */
  const [failedWay, setFailedWay] = useState<Way | null>(null);
  const [note, setNote] = useState('');
  const heading = usePageHeading('Sign in');
  const [recovering, setRecovering] = useState(false);
  const addressProblem = passkeyAddressProblem();

  const needEmail = () => {
    if (email.trim() !== '' && email.includes('@')) return true;
    setFailedWay(null);
    setError('Enter your e-mail address first.');
    document.getElementById('email')?.focus();
    return false;
  };

  /** The company's identity provider for this address, or a note that there is none. */
  const startSso = async () => {
    const found = await sso.start(environment, email.trim());
    if (found.method === 'sso' && found.authorizationUrl) {
      setNote('Taking you to your company’s sign-in…');
      window.location.assign(found.authorizationUrl);
      return true;
    }
    return false;
  };

  const run = async (way: Way, work: () => Promise<void>) => {
    setBusy(way);
    setError(null);
    setNote('');
    try {
      await work();
    } catch (caught) {
      setFailedWay(way);
      setError(messageOf(caught, 'Sign-in failed.'));
      setBusy(null);
    }
  };

  const withPassword = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const password = String(new FormData(event.currentTarget).get('password'));
    return run('password', async () => {
      try {
        onSignedIn((await session.signIn(environment, email, password)).user);
      } catch (caught) {
        // A company that made single sign-on mandatory: go there instead of stopping at the refusal.
        if (caught instanceof ApiError && caught.code === 'sso_required' && (await startSso())) return;
        throw caught;
      }
    });
  };

  const withPasskey = () => {
    if (!needEmail()) return;
    void run('passkey', async () => {
      if (addressProblem) throw new Error(addressProblem.text);
      if (!passkeysSupported()) throw new Error('This browser cannot use passkeys.');
      const options = await passkeys.signInOptions(environment, email.trim());
      const assertion = await signWithPasskey(options);
      onSignedIn((await passkeys.signIn(environment, assertion)).user);
    });
  };

  /** A lost passkey: one recovery code signs in, then Security asks for a new passkey. */
  const withRecoveryCode = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!needEmail()) return;
    const code = String(new FormData(event.currentTarget).get('recovery-code'));
    void run('recovery', async () => {
      const answer = await recoveryCodes.signIn(environment, email.trim(), code);
      window.sessionStorage.setItem(RECOVERED_KEY, String(answer.remainingRecoveryCodes));
      onSignedIn(answer.user);
      navigate('/settings/security');
    });
  };

  const withSso = () => {
    if (!needEmail()) return;
    void run('sso', async () => {
      if (await startSso()) return;
      setBusy(null);
      setNote('');
      throw new Error('Your address’s domain has no single sign-on here: use your password or a passkey.');
    });
  };

  return (
    <main className="centered">
      <div className="card auth-card">
        <h1 ref={heading} tabIndex={-1}>
          Sign in to the console
        </h1>
        {confirmation ? (
          <p className={confirmation.ok ? 'success' : 'error'} role="status">
            {confirmation.text}
          </p>
        ) : null}
        {ssoFailure ? (
          <p className="error" role="status">
            {ssoFailure}
          </p>
        ) : null}
        <form onSubmit={withPassword}>
          <label htmlFor="email">E-mail</label>
          <input
            id="email"
            name="email"
            type="email"
            autoComplete="username"
            required
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
          <label htmlFor="password">Password</label>
          <input id="password" name="password" type="password" autoComplete="current-password" required />
          <ErrorAlert error={failedWay === 'recovery' ? null : error} />
          <p role="status" className={note ? 'hint' : 'visually-hidden'}>
            {note}
          </p>
          <button type="submit" disabled={busy !== null}>
            {busy === 'password' ? 'Signing in…' : 'Sign in'}
          </button>
        </form>
        <section className="other-ways" aria-labelledby="other-ways">
          <h2 id="other-ways">Other ways to sign in</h2>
          <div className="other-ways-buttons">
            <button type="button" className="secondary" disabled={busy !== null} onClick={withPasskey}>
              {busy === 'passkey' ? 'Waiting for your passkey…' : 'Use a passkey'}
            </button>
            <button type="button" className="secondary" disabled={busy !== null} onClick={withSso}>
              {busy === 'sso' ? 'Finding your company…' : 'Use single sign-on (SSO)'}
            </button>
            <button
              type="button"
              className="secondary"
              aria-expanded={recovering}
              aria-controls="recovery-form"
              onClick={() => setRecovering(!recovering)}
            >
              Lost your passkey? Use a recovery code
            </button>
          </div>
          <PasskeyAddressNote problem={addressProblem} className="hint" />
          {recovering ? (
            <form id="recovery-form" onSubmit={withRecoveryCode}>
              <label htmlFor="recovery-code">Recovery code (with the e-mail above)</label>
              <input
                id="recovery-code"
                name="recovery-code"
                autoComplete="one-time-code"
                autoCapitalize="characters"
                spellCheck={false}
                required
              />
              <ErrorAlert error={failedWay === 'recovery' ? error : null} />
              <button type="submit" disabled={busy !== null}>
                {busy === 'recovery' ? 'Checking the code…' : 'Sign in with the code'}
              </button>
            </form>
          ) : null}
        </section>
        <p>
          <a href="/console/reset-password" onClick={linkHandler('/reset-password')}>
            Forgot your password?
          </a>
        </p>
        <p>
          New here?{' '}
          <a href="/console/sign-up" onClick={linkHandler('/sign-up')}>
            Create an account
          </a>
        </p>
      </div>
    </main>
  );
}
