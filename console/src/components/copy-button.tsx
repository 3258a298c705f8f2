import './find.css';
import { useEffect, useState } from 'react';

interface CopyButtonProps {
  /** What goes on the clipboard. */
  value: string;
  /** What is copied, for the button's accessible name: "Copy chip UID". */
  label: string;
}

/**
 * A small button that puts a value (an id, a hash) on the clipboard and says so for two seconds. Its word
 * (Copy, Copied) is drawn by CSS so a cell's text stays the value alone; its name is "Copy <value>" so it never
 * takes a form field's label. Clicks inside a clickable row do not open the row.
 */
export function CopyButton({ value, label }: CopyButtonProps) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 2000);
    return () => clearTimeout(timer);
  }, [state]);
  const copy = async (event: { stopPropagation: () => void }) => {
    event.stopPropagation();
    try {
      await navigator.clipboard.writeText(value);
      setState('copied');
    } catch {
      setState('failed');
    }
  };
  return (
    <button
      type="button"
      className="copy-button"
      data-state={state}
      aria-label={`Copy ${value}`}
      title={`Copy the ${label}`}
      onClick={copy}
      onKeyDown={(event) => event.stopPropagation()}
    >
      <span className="visually-hidden" aria-live="polite">
        {state === 'copied' ? `The ${label} is copied` : state === 'failed' ? 'Copying failed' : ''}
      </span>
    </button>
  );
}

/** An id or hash shown in full (wrapping where it must) with its copy button. */
export function CopyableValue({ value, label }: CopyButtonProps) {
  return (
    <span className="copyable">
      <code>{value}</code>
      <CopyButton value={value} label={label} />
    </span>
  );
}

/** A transaction hash: a link to the block explorer when one is configured, else plain text; with its copy button. */
export function TransactionHash({ hash, url }: { hash: string; url: string | null }) {
  const short = `${hash.slice(0, 10)}…${hash.slice(-6)}`;
  return (
    <span className="copyable">
      {url ? (
        <a
          href={url}
          target="_blank"
          rel="noopener noreferrer"
          title={hash}
          aria-label={`Transaction ${short} on the block explorer (opens in a new tab)`}
          onClick={(event) => event.stopPropagation()}
        >
          <code>{short}</code>
        </a>
      ) : (
        <code title={hash}>{short}</code>
      )}
      <CopyButton value={hash} label="transaction hash" />
    </span>
  );
}
