import { useState } from 'react';
import { type Environment, type SessionUser, session } from '../api.ts';
import { ErrorAlert } from '../components/error-alert.tsx';
import { useFormSubmit } from '../hooks/use-form-submit.ts';
import { usePageHeading } from '../hooks/use-page-heading.ts';
import { linkHandler } from '../router.ts';

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

export function SignIn({ environment, onSignedIn }: SignInProps) {
  const [confirmation] = useState(confirmationOutcome);
  const heading = usePageHeading('Sign in');
  const { error, busy, submit } = useFormSubmit(async (form) => {
    const answer = await session.signIn(environment, String(form.get('email')), String(form.get('password')));
    onSignedIn(answer.user);
  }, 'Sign-in failed.');
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
        <form onSubmit={submit}>
          <label htmlFor="email">E-mail</label>
          <input id="email" name="email" type="email" autoComplete="username" required />
          <label htmlFor="password">Password</label>
          <input id="password" name="password" type="password" autoComplete="current-password" required />
          <ErrorAlert error={error} />
          <button type="submit" disabled={busy}>
            {busy ? 'Signing in…' : 'Sign in'}
          </button>
        </form>
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
