import { useEffect, useState } from 'react';
import '../account.css';
import { type Passkey, passkeys } from '../account-api.ts';
import type { Environment, SessionUser } from '../api.ts';
import { ActionsHeader } from '../components/actions-header.tsx';
import { ConfirmRemove } from '../components/confirm-remove.tsx';
import { ErrorAlert } from '../components/error-alert.tsx';
import { LiveStatus } from '../components/live-status.tsx';
import { useAction } from '../hooks/use-action.ts';
import { useFailure } from '../hooks/use-failure.ts';
import { useList } from '../hooks/use-list.ts';
import { usePageHeading } from '../hooks/use-page-heading.ts';
import { createPasskey, passkeysSupported } from '../webauthn.ts';

interface SecurityProps {
  user: SessionUser;
  environment: Environment;
  onSessionEnded: (error: unknown) => boolean;
}

const when = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' });
const listPasskeys = async (environment: Environment) => (await passkeys.list(environment)).passkeys;
/** A passkey's name on screen: its kind and the start of its id (the API keeps no names). */
const nameOf = (passkey: Passkey) =>
  `${passkey.deviceType === 'multiDevice' ? 'Synced passkey' : 'Device passkey'} ${passkey.id.slice(0, 8)}`;

/** Your account › Security: the signed-in person's passkeys (add, see, remove). */
export function Security({ user, environment, onSessionEnded }: SecurityProps) {
  const { error, setError, fail } = useFailure(onSessionEnded);
  const { items, load } = useList(listPasskeys, environment, fail);
  const { busy, status, act } = useAction({ load, fail, onStart: () => setError(null) });
  const [confirming, setConfirming] = useState<string | null>(null);
  const heading = usePageHeading('Security');

  useEffect(() => {
    void load();
  }, [load]);

  const add = () =>
    act(async () => {
      if (!passkeysSupported()) throw new Error('This browser cannot create passkeys.');
      const options = await passkeys.registrationOptions(environment, user.email);
      await passkeys.register(environment, await createPasskey(options));
      return 'Passkey added. Sign in with it from now on: password sign-in is turned off for your account.';
    });

  const remove = (passkey: Passkey) =>
    act(async () => {
      await passkeys.remove(environment, passkey.id);
      setConfirming(null);
      return `${nameOf(passkey)} removed.`;
    });

  return (
    <section aria-labelledby="security-heading">
      <h1 id="security-heading" ref={heading} tabIndex={-1}>
        Security
      </h1>
      <p className="lede">
        Passkeys of {user.email}. A passkey signs you in with your device’s lock (fingerprint, face or PIN)
        instead of a password and cannot be phished. Once you have one, password sign-in is turned off for
        your account; removing your last passkey turns it on again.
      </p>
      <button type="button" disabled={busy} onClick={() => void add()}>
        {busy ? 'Working…' : 'Add a passkey'}
      </button>
      <LiveStatus status={status} className="success" />
      <ErrorAlert error={error} />
      <h2>Your passkeys</h2>
      {items === null ? (
        <p role="status">Loading your passkeys…</p>
      ) : items.length === 0 ? (
        <p>You have no passkey yet.</p>
      ) : (
        <table className="keys">
          <caption className="visually-hidden">Passkeys of {user.email}</caption>
          <thead>
            <tr>
              <th scope="col">Passkey</th>
              <th scope="col">Added</th>
              <th scope="col">Last used</th>
              <ActionsHeader />
            </tr>
          </thead>
          <tbody>
            {items.map((passkey) => (
              <tr key={passkey.id}>
                <td data-label="Passkey">{nameOf(passkey)}</td>
                <td data-label="Added">{when.format(new Date(passkey.createdAt))}</td>
                <td data-label="Last used">
                  {passkey.lastUsedAt ? when.format(new Date(passkey.lastUsedAt)) : 'Never'}
                </td>
                <td>
                  <div className="actions">
                    <ConfirmRemove
                      name={nameOf(passkey)}
                      verb="Remove"
                      doing="removing"
                      confirming={confirming === passkey.id}
                      busy={busy}
                      onAsk={() => setConfirming(passkey.id)}
                      onCancel={() => setConfirming(null)}
                      onConfirm={() => void remove(passkey)}
                    />
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
