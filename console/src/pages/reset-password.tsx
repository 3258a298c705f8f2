import { useState } from 'react';
import { ApiError, type Environment, passwordReset } from '../api.ts';
import { ErrorAlert } from '../components/error-alert.tsx';
import { useFormSubmit } from '../hooks/use-form-submit.ts';
import { usePageHeading } from '../hooks/use-page-heading.ts';
import { linkHandler } from '../router.ts';

/** The token of the mail's link (a password reset's or an invitation's), if this page was opened from one. */
const tokenFromLink = () => new URLSearchParams(window.location.search).get('token');

/**
 * Where the password mails lead: `/console/reset-password?token=…` (a reset, or an invitation to the team) sets
 * the password; without a token the page asks for a new link. Browsers without JavaScript get the API's own
 * form at `/reset-password?token=…` (the console's page links it in a noscript block).
 */
export function ResetPassword({ environment }: { environment: Environment }) {
  const [token] = useState(tokenFromLink);
  return token ? <SetPassword token={token} /> : <RequestLink environment={environment} />;
}

function SetPassword({ token }: { token: string }) {
  const heading = usePageHeading('Set your password');
  const [done, setDone] = useState<string | null>(null);
  const [expired, setExpired] = useState(false);
  const { error, busy, submit } = useFormSubmit(async (form) => {
    try {
      setDone((await passwordReset.set('test', token, String(form.get('password')))).message);
    } catch (caught) {
      if (caught instanceof ApiError && caught.status === 410) setExpired(true);
      throw caught;
    }
  }, 'The password could not be set.');
  return (
    <main className="centered">
      <div className="card auth-card">
        <h1 ref={heading} tabIndex={-1}>
          Set your password
        </h1>
        {done ? (
          <>
            <p className="success" role="status">
              {done} Your e-mail address is confirmed.
            </p>
            <p>
              <a href="/console/sign-in" onClick={linkHandler('/sign-in')}>
                Sign in with it
              </a>
            </p>
          </>
        ) : (
          <>
            <form onSubmit={submit}>
              <label htmlFor="new-password">New password (at least 12 and at most 128 characters)</label>
              <input
                id="new-password"
                name="password"
                type="password"
                autoComplete="new-password"
                minLength={12}
                maxLength={128}
                required
              />
              <ErrorAlert error={error} />
              <button type="submit" disabled={busy}>
                {busy ? 'Setting…' : 'Set password'}
              </button>
            </form>
            {expired ? (
              <p>
                <a href="/console/reset-password" onClick={linkHandler('/reset-password')}>
                  Ask for a new link
                </a>
              </p>
            ) : null}
          </>
        )}
      </div>
    </main>
  );
}

function RequestLink({ environment }: { environment: Environment }) {
  const heading = usePageHeading('Reset your password');
  const [sent, setSent] = useState<string | null>(null);
  const { error, busy, submit } = useFormSubmit(async (form) => {
    setSent((await passwordReset.request(environment, String(form.get('email')))).message);
  }, 'The link could not be sent.');
  return (
    <main className="centered">
      <div className="card auth-card">
        <h1 ref={heading} tabIndex={-1}>
          Reset your password
        </h1>
        {sent ? (
          <p className="success" role="status">
            {sent} The link works once, for one hour.
          </p>
        ) : (
          <form onSubmit={submit}>
            <label htmlFor="reset-email">E-mail</label>
            <input id="reset-email" name="email" type="email" autoComplete="username" required />
            <ErrorAlert error={error} />
            <button type="submit" disabled={busy}>
              {busy ? 'Sending…' : 'Send me a link'}
            </button>
          </form>
        )}
        <p>
          <a href="/console/sign-in" onClick={linkHandler('/sign-in')}>
            Back to sign-in
          </a>
        </p>
      </div>
    </main>
  );
}
