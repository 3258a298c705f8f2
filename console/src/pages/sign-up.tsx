import { useState } from 'react';
import { type Environment, session } from '../api.ts';
import { ErrorAlert } from '../components/error-alert.tsx';
import { useFormSubmit } from '../hooks/use-form-submit.ts';
import { usePageHeading } from '../hooks/use-page-heading.ts';
import { linkHandler } from '../router.ts';

export function SignUp({ environment }: { environment: Environment }) {
  const [sent, setSent] = useState<string | null>(null);
  const heading = usePageHeading('Create an account');
  // After success the form gives way to the message, so the button need not come back.
  const { error, busy, submit } = useFormSubmit(async (form) => {
    const answer = await session.register(
      environment,
      String(form.get('email')),
      String(form.get('password')),
      String(form.get('companyName')),
    );
    setSent(answer.message);
  }, 'Registration failed.');
  return (
    <main className="centered">
      <div className="card auth-card">
        <h1 ref={heading} tabIndex={-1}>
          Create your company’s account
        </h1>
        {sent ? (
          <div role="status">
            <p className="success">{sent}</p>
            <p>
              <a href="/console/sign-in" onClick={linkHandler('/sign-in')}>
                Sign in
              </a>{' '}
              once you have confirmed your address.
            </p>
          </div>
        ) : (
          <form onSubmit={submit}>
            <label htmlFor="companyName">Company name</label>
            <input id="companyName" name="companyName" autoComplete="organization" required maxLength={200} />
            <label htmlFor="email">Work e-mail</label>
            <input id="email" name="email" type="email" autoComplete="email" required />
            <label htmlFor="password">Password</label>
            <input
              id="password"
              name="password"
              type="password"
              autoComplete="new-password"
              minLength={12}
              maxLength={128}
              required
              aria-describedby="password-rule"
            />
            <p id="password-rule" className="hint">
              12 to 128 characters. A long passphrase is best.
            </p>
            <ErrorAlert error={error} />
            <button type="submit" disabled={busy}>
              {busy ? 'Creating…' : 'Create account'}
            </button>
          </form>
        )}
        <p>
          Already registered?{' '}
          <a href="/console/sign-in" onClick={linkHandler('/sign-in')}>
            Sign in
          </a>
        </p>
      </div>
    </main>
  );
}
