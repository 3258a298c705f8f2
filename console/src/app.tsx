import { useCallback, useEffect, useState } from 'react';
import { ApiError, type Environment, type SessionUser, session } from './api.ts';
import { EditContent } from './pages/authoring/edit-content.tsx';
import { NewLevel } from './pages/authoring/new-level.tsx';
import { Billing } from './pages/billing.tsx';
import { BrandingSettings } from './pages/branding.tsx';
import { CompanySettingsPage } from './pages/company-settings.tsx';
import { Compliance } from './pages/compliance.tsx';
import { Developers } from './pages/developers.tsx';
import { Import } from './pages/import.tsx';
import { Level } from './pages/level.tsx';
import { Logs } from './pages/logs.tsx';
import { Overview } from './pages/overview.tsx';
import { Passport } from './pages/passport.tsx';
import { Passports } from './pages/passports.tsx';
import { ResetPassword } from './pages/reset-password.tsx';
import { Security } from './pages/security.tsx';
import { SignIn } from './pages/sign-in.tsx';
import { SignUp } from './pages/sign-up.tsx';
import { Signals } from './pages/signals.tsx';
import { SsoSettings } from './pages/sso-settings.tsx';
import { Team } from './pages/team.tsx';
import { Transfers } from './pages/transfers.tsx';
import { Webhooks } from './pages/webhooks.tsx';
import { linkHandler, navigate, usePath } from './router.ts';
import { Shell } from './shell.tsx';

// The chosen environment is a preference, not a secret: the session itself is an HttpOnly cookie.
const ENVIRONMENT_PREFERENCE = 'dpp-console-environment';

function storedEnvironment(): Environment {
  return window.localStorage.getItem(ENVIRONMENT_PREFERENCE) === 'live' ? 'live' : 'test';
}

/** Where a signed-in person starts: the overview of their company. */
const LANDING = '/overview';
const PUBLIC_PAGES = new Set(['/sign-in', '/sign-up']);
/** Pages shown whether or not someone is signed in (a mail's link may open in a signed-in browser). */
const OPEN_PAGES = new Set(['/reset-password']);

export function App() {
  const path = usePath();
  const [environment, setEnvironment] = useState<Environment>(storedEnvironment);
  // undefined: still asking the service whether a session exists.
  const [user, setUser] = useState<SessionUser | null | undefined>(undefined);

  useEffect(() => {
    session.current('test').then(
      (answer) => setUser(answer.user),
      () => setUser(null),
    );
  }, []);

  const switchEnvironment = useCallback((next: Environment) => {
    window.localStorage.setItem(ENVIRONMENT_PREFERENCE, next);
    setEnvironment(next);
  }, []);

  /** Any call that finds the session ended sends the person back to sign in. */
  const onSessionEnded = useCallback((error: unknown) => {
    if (error instanceof ApiError && error.status === 401) {
      setUser(null);
      navigate('/sign-in');
      return true;
    }
    return false;
  }, []);

  useEffect(() => {
    if (user === undefined || OPEN_PAGES.has(path)) return;
    if (user === null && !PUBLIC_PAGES.has(path)) navigate('/sign-in');
    if (user !== null && (PUBLIC_PAGES.has(path) || path === '/')) navigate(LANDING);
  }, [user, path]);

  if (path === '/reset-password') return <ResetPassword environment={environment} />;
  if (user === undefined) {
    return (
      <main className="centered" aria-busy="true">
        <p role="status">Loading the console…</p>
      </main>
    );
  }
  if (user === null) {
    if (path === '/sign-up') return <SignUp environment={environment} />;
    return (
      <SignIn
        environment={environment}
        onSignedIn={(signedIn) => {
          setUser(signedIn);
          navigate(LANDING);
        }}
      />
    );
  }
  return (
    <Shell
      path={path}
      user={user}
      environment={environment}
      onSwitch={switchEnvironment}
      onSignedOut={() => {
        setUser(null);
        navigate('/sign-in');
      }}
    >
      {path === LANDING ? (
        <Overview user={user} environment={environment} onSessionEnded={onSessionEnded} />
      ) : path === '/import' ? (
        <Import key={environment} environment={environment} onSessionEnded={onSessionEnded} />
      ) : path === '/passports' ? (
        // Keyed by the environment: a switch starts again at the first page (cursors are per environment).
        <Passports key={environment} environment={environment} onSessionEnded={onSessionEnded} />
      ) : path.startsWith('/authoring/') ? (
        path === '/authoring/new' ? (
          <NewLevel
            environment={environment}
            mayWrite={user.rights.includes('managePassports')}
            onSessionEnded={onSessionEnded}
          />
        ) : (
          <EditContent
            key={`${environment}${path}`}
            dppId={decodeURIComponent(path.slice('/authoring/'.length))}
            environment={environment}
            mayWrite={user.rights.includes('managePassports')}
            onSessionEnded={onSessionEnded}
          />
        )
      ) : path.startsWith('/levels/') ? (
        <Level
          key={`${environment}${path}`}
          dppId={decodeURIComponent(path.slice('/levels/'.length))}
          environment={environment}
          onSessionEnded={onSessionEnded}
        />
      ) : path.startsWith('/passports/') ? (
        <Passport
          key={path}
          tokenId={decodeURIComponent(path.slice('/passports/'.length))}
          user={user}
          environment={environment}
          onSessionEnded={onSessionEnded}
        />
      ) : path === '/signals' ? (
        <Signals key={environment} user={user} environment={environment} onSessionEnded={onSessionEnded} />
      ) : path === '/settings/developers' ? (
        <Developers environment={environment} onSessionEnded={onSessionEnded} />
      ) : path === '/settings/developers/logs' ? (
        <Logs key={environment} environment={environment} onSessionEnded={onSessionEnded} />
      ) : path === '/settings/webhooks' ? (
        <Webhooks environment={environment} onSessionEnded={onSessionEnded} />
      ) : path === '/settings/team' ? (
        <Team
          user={user}
          environment={environment}
          onSessionEnded={onSessionEnded}
          // A new role brings other rights: ask the service again rather than guess them.
          onOwnRoleChanged={() =>
            session.current(environment).then((answer) => setUser(answer.user), onSessionEnded)
          }
        />
      ) : path === '/settings/transfers' ? (
        <Transfers key={environment} user={user} environment={environment} onSessionEnded={onSessionEnded} />
      ) : path === '/settings/branding' ? (
        <BrandingSettings
          key={environment}
          user={user}
          environment={environment}
          onSessionEnded={onSessionEnded}
        />
      ) : path === '/settings/security' ? (
        <Security user={user} environment={environment} onSessionEnded={onSessionEnded} />
      ) : path === '/settings/billing' ? (
        <Billing user={user} environment={environment} onSessionEnded={onSessionEnded} />
      ) : path === '/settings/compliance' ? (
        <Compliance user={user} environment={environment} onSessionEnded={onSessionEnded} />
      ) : path === '/settings/sso' ? (
        <SsoSettings user={user} environment={environment} onSessionEnded={onSessionEnded} />
      ) : path === '/settings/company' ? (
        <CompanySettingsPage
          key={environment}
          user={user}
          environment={environment}
          onSessionEnded={onSessionEnded}
        />
      ) : (
        <NotFound />
      )}
    </Shell>
  );
}

function NotFound() {
  return (
    <section>
      <h1>Page not found</h1>
      <p>
        <a href="/console/overview" onClick={linkHandler(LANDING)}>
          Go to the overview
        </a>
      </p>
    </section>
  );
}
