import { type FormEvent, useEffect, useRef, useState } from 'react';
import { type Environment, type SessionUser, session } from '../api.ts';
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
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = 'Sign in · DPP Console';
    heading.current?.focus();
  }, []);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    try {
      const answer = await session.signIn(
        environment,
        String(form.get('email')),
        String(form.get('password')),
      );
      onSignedIn(answer.user);
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : 'Sign-in failed.');
      setBusy(false);
    }
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
        <form onSubmit={submit}>
          <label htmlFor="email">E-mail</label>
          <input id="email" name="email" type="email" autoComplete="username" required />
          <label htmlFor="password">Password</label>
          <input id="password" name="password" type="password" autoComplete="current-password" required />
          {error ? (
            <p className="error" role="alert">
              {error}
            </p>
          ) : null}
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
