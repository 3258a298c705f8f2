import { useEffect, useRef, useState } from 'react';

/** A fresh set of recovery codes, shown this once: copy or print them, then confirm they are stored. */
export function RecoveryCodesOnce({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const [copied, setCopied] = useState('');
  useEffect(() => heading.current?.focus(), []);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(`${codes.join('\n')}\n`);
      setCopied('Copied to the clipboard.');
    } catch {
      setCopied('Your browser does not allow copying here: write the codes down or print this page.');
    }
  };
  return (
    <section className="card new-key" aria-labelledby="recovery-codes-heading">
      <h2 id="recovery-codes-heading" ref={heading} tabIndex={-1}>
        Your recovery codes
      </h2>
      <p>
        If you lose the device with your passkey, each code signs you in once. This is the only time they are
        shown: keep them somewhere safe that is not that device (a password manager, or printed).
      </p>
      <ol className="recovery-codes" aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <div className="button-row">
        <button type="button" onClick={() => void copy()}>
          Copy the codes
        </button>
        <button type="button" className="secondary" onClick={onDone}>
          I have stored them
        </button>
      </div>
      <p role="status" aria-live="polite" className="hint">
        {copied}
      </p>
    </section>
  );
}
