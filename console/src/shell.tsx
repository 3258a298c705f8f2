import { type ReactNode, useState } from 'react';
import { type Environment, type SessionUser, session } from './api.ts';
import { linkHandler } from './router.ts';

interface ShellProps {
  path: string;
  user: SessionUser;
  environment: Environment;
  onSwitch: (environment: Environment) => void;
  onSignedOut: () => void;
  children: ReactNode;
}

/** The signed-in frame: the test-mode banner, the environment switch, navigation and the account menu. */
export function Shell({ path, user, environment, onSwitch, onSignedOut, children }: ShellProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const signOut = async (everywhere: boolean) => {
    setBusy(true);
    setError(null);
    try {
      await (everywhere ? session.signOutEverywhere(environment) : session.signOut(environment));
      onSignedOut();
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : 'Sign-out failed.');
      setBusy(false);
    }
  };
  const test = environment === 'test';
  return (
    <div className={test ? 'frame test-mode' : 'frame'}>
      {test ? (
        <p className="test-banner" role="note">
          Test mode: you are looking at test data. Nothing here touches live passports or live keys.
        </p>
      ) : null}
      <header className="topbar">
        <a
          className="brand"
          href="/console/settings/developers"
          onClick={linkHandler('/settings/developers')}
        >
          DPP Console
        </a>
        <span className="company">{user.companyName}</span>
        <label className="env-switch">
          <input
            type="checkbox"
            role="switch"
            aria-checked={test}
            checked={test}
            onChange={(event) => onSwitch(event.target.checked ? 'test' : 'live')}
          />
          <span>Test mode</span>
        </label>
        <div className="account">
          <span className="who">
            {user.email} <span className="role">({user.role})</span>
          </span>
          <button type="button" className="link-button" disabled={busy} onClick={() => signOut(false)}>
            Sign out
          </button>
          <button type="button" className="link-button" disabled={busy} onClick={() => signOut(true)}>
            Sign out everywhere
          </button>
        </div>
      </header>
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="layout">
        <nav aria-label="Console">
          <ul className="nav-top">
            <li>
              <a
                href="/console/passports"
                aria-current={path === '/passports' || path.startsWith('/passports/') ? 'page' : undefined}
                onClick={linkHandler('/passports')}
              >
                Passports
              </a>
            </li>
          </ul>
          <p className="nav-heading">Settings</p>
          <ul>
            {[
              { to: '/settings/developers', label: 'Developers' },
              { to: '/settings/developers/logs', label: 'Logs' },
              { to: '/settings/webhooks', label: 'Webhooks' },
              { to: '/settings/team', label: 'Team' },
              { to: '/settings/billing', label: 'Billing' },
              { to: '/settings/compliance', label: 'Compliance' },
              { to: '/settings/sso', label: 'Single sign-on' },
              { to: '/settings/security', label: 'Security' },
            ].map((item) => (
              <li key={item.to}>
                <a
                  href={`/console${item.to}`}
                  aria-current={path === item.to ? 'page' : undefined}
                  onClick={linkHandler(item.to)}
                >
                  {item.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main">{children}</main>
      </div>
    </div>
  );
}
