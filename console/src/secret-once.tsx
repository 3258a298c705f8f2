import { type ReactNode, useEffect, useRef, useState } from 'react';

interface SecretOnceProps {
  /** The field's id (the page's tests and labels find it by its label). */
  id: string;
  title: string;
  label: string;
  secret: string;
  /** Shown above the secret, e.g. the client id that goes with it. */
  children?: ReactNode;
  onDone: () => void;
}

/** A secret the service shows only once (an API key, a client secret): copy it now; closed, it is gone. */
export function SecretOnce({ id, title, label, secret, children, onDone }: SecretOnceProps) {
  const [copied, setCopied] = useState('');
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => field.current?.focus(), []);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied('Copied to the clipboard.');
    } catch {
      field.current?.select();
      setCopied('Selected: press Ctrl+C (or ⌘C) to copy.');
    }
  };
  return (
    <section className="card new-key" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{title}</h2>
      <p>This is the only time it is shown. Store it in your secret manager.</p>
      {children}
      <div className="copy-row">
        <label htmlFor={id} className="visually-hidden">
          {label}
        </label>
        <input id={id} ref={field} readOnly value={secret} onFocus={(event) => event.target.select()} />
        <button type="button" onClick={copy}>
          Copy
        </button>
      </div>
      <p role="status" aria-live="polite" className="hint">
        {copied}
      </p>
      <button type="button" className="secondary" onClick={onDone}>
        I have stored it
      </button>
    </section>
  );
}
