import { useCallback, useEffect, useState } from 'react';
import '../account.css';
import { type Passkey, passkeys, recoveryCodes } from '../account-api.ts';
import type { Environment, SessionUser } from '../api.ts';
import { ActionsHeader } from '../components/actions-header.tsx';
import { ConfirmRemove } from '../components/confirm-remove.tsx';
import { ErrorAlert } from '../components/error-alert.tsx';
import { LiveStatus } from '../components/live-status.tsx';
import { useAction } from '../hooks/use-action.ts';
import { useFailure } from '../hooks/use-failure.ts';
import { useList } from '../hooks/use-list.ts';
import { usePageHeading } from '../hooks/use-page-heading.ts';
import { createPasskey, passkeyAddressProblem, passkeysSupported } from '../webauthn.ts';
import { PasskeyAddressNote } from './passkey-address-note.tsx';
import { RecoveryCodesOnce } from './recovery-codes-once.tsx';

interface SecurityProps {
  user: SessionUser;
  environment: Environment;
  onSessionEnded: (error: unknown) => boolean;
}

/** Set by the sign-in page when someone came in with a recovery code: this page then asks for a new passkey. */
export const RECOVERED_KEY = 'dpp-console-recovered';

const when = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' });
const listPasskeys = async (environment: Environment) => (await passkeys.list(environment)).passkeys;
/** A passkey's name on screen: its kind and the start of its id (the API keeps no names). */
const nameOf = (passkey: Passkey) =>
  `${passkey.deviceType === 'multiDevice' ? 'Synced passkey' : 'Device passkey'} ${passkey.id.slice(0, 8)}`;

/** Your account › Security: the signed-in person's passkeys (add, see, remove) and recovery codes. */
export function Security({ user, environment, onSessionEnded }: SecurityProps) {
  const { error, setError, fail } = useFailure(onSessionEnded);
  const { items, load: loadPasskeys } = useList(listPasskeys, environment, fail);
  const [remaining, setRemaining] = useState<number | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [renewing, setRenewing] = useState(false);
  const [recovered, setRecovered] = useState(() => window.sessionStorage.getItem(RECOVERED_KEY) !== null);
  const load = useCallback(async () => {
    await loadPasskeys();
    setRemaining((await recoveryCodes.remaining(environment).catch(() => null))?.remaining ?? null);
  }, [loadPasskeys, environment]);
  const { busy, status, act } = useAction({ load, fail, onStart: () => setError(null) });
  const [confirming, setConfirming] = useState<string | null>(null);
  const heading = usePageHeading('Security');
  const addressProblem = passkeyAddressProblem();

  useEffect(() => {
    void load();
  }, [load]);

  const add = () =>
    act(async () => {
      if (addressProblem) throw new Error(addressProblem.text);
      if (!passkeysSupported()) throw new Error('This browser cannot create passkeys.');
      const options = await passkeys.registrationOptions(environment, user.email);
      const added = await passkeys.register(environment, await createPasskey(options));
      if (added.recoveryCodes) setCodes(added.recoveryCodes);
      window.sessionStorage.removeItem(RECOVERED_KEY);
      setRecovered(false);
      return 'Passkey added. Sign in with it, or with your password as before.';
    });

  const remove = (passkey: Passkey) =>
    act(async () => {
      await passkeys.remove(environment, passkey.id);
      setConfirming(null);
      return `${nameOf(passkey)} removed.`;
    });

  const renew = () =>
    act(async () => {
      setCodes((await recoveryCodes.renew(environment)).recoveryCodes);
      setRenewing(false);
      return 'New recovery codes made: the old ones no longer work.';
    });

  return (
    <section aria-labelledby="security-heading">
      <h1 id="security-heading" ref={heading} tabIndex={-1}>
        Security
      </h1>
      {recovered ? (
        <p className="attention" role="status">
          You signed in with a recovery code. Add a new passkey now, then remove the one you lost
          {remaining !== null ? ` (${remaining} recovery ${remaining === 1 ? 'code' : 'codes'} left)` : ''}.
        </p>
      ) : null}
      <p className="lede">
        Passkeys of {user.email}. A passkey signs you in with your device’s lock (fingerprint, face or PIN)
        and cannot be phished. It is a second way in: your password keeps working, and recovery codes sign you
        in if you lose the device.
      </p>
      <PasskeyAddressNote problem={addressProblem} className="attention" />
      <button type="button" disabled={busy} onClick={() => void add()}>
        {busy ? 'Working…' : 'Add a passkey'}
      </button>
      <LiveStatus status={status} className="success" />
      <ErrorAlert error={error} />
      {codes ? <RecoveryCodesOnce codes={codes} onDone={() => setCodes(null)} /> : null}
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
      <h2>Recovery codes</h2>
      <p>
        {remaining === null
          ? 'Counting your recovery codes…'
          : remaining === 0
            ? 'You have no unused recovery code. A set is made when you add your first passkey, or here.'
            : `${remaining} unused recovery ${remaining === 1 ? 'code' : 'codes'} left. Each signs you in once if you lose your passkey.`}
      </p>
      {renewing ? (
        <div className="button-row">
          <span>The codes you have now will stop working.</span>
          <button type="button" disabled={busy} onClick={() => void renew()}>
            Make new codes
          </button>
          <button type="button" className="secondary" onClick={() => setRenewing(false)}>
            Cancel
          </button>
        </div>
      ) : (
        <button type="button" className="secondary" disabled={busy} onClick={() => setRenewing(true)}>
          Make new recovery codes
        </button>
      )}
    </section>
  );
}
