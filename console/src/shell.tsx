import { type KeyboardEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { type Environment, type SessionUser, session } from './api.ts';
import { ModeBanner, ModeSwitch } from './components/mode-switch.tsx';
import { SignedInProvider } from './rights.tsx';
import { linkHandler } from './router.ts';

interface ShellProps {
  path: string;
  user: SessionUser;
  environment: Environment;
  onSwitch: (environment: Environment) => void;
  onSignedOut: () => void;
  children: ReactNode;
}

/**
 * The signed-in frame: the mode banner, the mode badge and switch, navigation and the account menu.
 * On phones the navigation and the account's buttons fold behind a Menu button, so the page starts on screen.
 */
export function Shell({ path, user, environment, onSwitch, onSignedOut, children }: ShellProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  // Following a link closes the menu: the page it opens is what the person wants to see.
  // biome-ignore lint/correctness/useExhaustiveDependencies: path is the trigger, not a value read
  useEffect(() => setMenuOpen(false), [path]);
  const closeOnEscape = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || !menuOpen) return;
    setMenuOpen(false);
    menuButton.current?.focus();
  };
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
    // biome-ignore lint/a11y/noStaticElementInteractions: Escape anywhere in the frame closes the open menu
    <div
      className={`frame ${test ? 'test-mode' : 'live-mode'}${menuOpen ? ' menu-open' : ''}`}
      onKeyDown={closeOnEscape}
    >
      <ModeBanner environment={environment} />
      <header className="topbar">
        <button
          ref={menuButton}
          type="button"
          className="menu-button secondary"
          aria-expanded={menuOpen}
          aria-controls="console-menu"
          onClick={() => setMenuOpen(!menuOpen)}
        >
          Menu
        </button>
        <a className="brand" href="/console/overview" onClick={linkHandler('/overview')}>
          DPP Console
        </a>
        <span className="company">{user.companyName}</span>
        <ModeSwitch environment={environment} onSwitch={onSwitch} />
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
        <nav aria-label="Console" id="console-menu">
          <ul className="nav-top">
            <li>
              <a
                href="/console/overview"
                aria-current={path === '/overview' ? 'page' : undefined}
                onClick={linkHandler('/overview')}
              >
                Overview
              </a>
            </li>
            <li>
              <a
                href="/console/passports"
                aria-current={path === '/passports' || path.startsWith('/passports/') ? 'page' : undefined}
                onClick={linkHandler('/passports')}
              >
                Passports
              </a>
            </li>
            <li>
              <a
                href="/console/signals"
                aria-current={path === '/signals' ? 'page' : undefined}
                onClick={linkHandler('/signals')}
              >
                Signals
              </a>
            </li>
          </ul>
          <p className="nav-heading">Settings</p>
          <ul>
            {[
              { to: '/settings/company', label: 'Company' },
              { to: '/settings/branding', label: 'Branding' },
              { to: '/settings/developers', label: 'Developers' },
              { to: '/settings/developers/logs', label: 'Logs' },
              { to: '/settings/webhooks', label: 'Webhooks' },
              { to: '/settings/team', label: 'Team' },
              { to: '/settings/transfers', label: 'Transfers' },
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
        <main id="main">
          <SignedInProvider user={user}>{children}</SignedInProvider>
        </main>
      </div>
    </div>
  );
}
