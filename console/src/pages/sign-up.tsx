import { type FormEvent, useEffect, useRef, useState } from 'react';
import { type Environment, session } from '../api.ts';
import { linkHandler } from '../router.ts';

export function SignUp({ environment }: { environment: Environment }) {
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = 'Create an account · DPP Console';
    heading.current?.focus();
  }, []);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    try {
      const answer = await session.register(
        environment,
        String(form.get('email')),
        String(form.get('password')),
        String(form.get('companyName')),
      );
      setSent(answer.message);
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : 'Registration failed.');
    } finally {
      setBusy(false);
    }
  };
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
            {error ? (
              <p className="error" role="alert">
                {error}
              </p>
            ) : null}
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
