import { useCallback, useEffect, useState } from 'react';
import { ApiError, type Environment } from '../api.ts';
import { type MintStatus, passports } from '../passports-api.ts';
import { linkHandler } from '../router.ts';

const STEPS = ['preparing', 'minting', 'recording', 'done'] as const;
const STEP_TEXT: Record<(typeof STEPS)[number], string> = {
  preparing: 'Preparing the token (metadata, content)',
  minting: 'Minting on chain',
  recording: 'Recording the passport',
  done: 'Done',
};
/** How often a running mint is asked again. */
const POLL_MS = 2_000;

interface MintProgressProps {
  chipUid: string;
  environment: Environment;
  onFail: (error: unknown) => void;
}

/**
 * The mint of a chip that has no passport (yet): the workflow's state and step, the transaction once sent, and
 * an operator's attention when the chain write is done but the record keeps failing. Asked again every 2 s
 * while it runs.
 */
export function MintProgress({ chipUid, environment, onFail }: MintProgressProps) {
  const [mint, setMint] = useState<MintStatus | 'none' | null>(null);
  const load = useCallback(async () => {
    try {
      setMint(await passports.mintStatus(environment, chipUid));
    } catch (caught) {
      if (caught instanceof ApiError && caught.status === 404) setMint('none');
      else onFail(caught);
    }
  }, [chipUid, environment, onFail]);

  useEffect(() => {
    setMint(null);
    void load();
  }, [load]);
  const running = mint !== null && mint !== 'none' && mint.status === 'RUNNING';
  useEffect(() => {
    if (!running) return;
    const timer = window.setInterval(() => void load(), POLL_MS);
    return () => window.clearInterval(timer);
  }, [running, load]);

  if (mint === null) return <p role="status">Looking for a mint of chip {chipUid}…</p>;
  if (mint === 'none') {
    return (
      <p className="notice">
        No passport and no mint for chip <code>{chipUid}</code> in this environment.
      </p>
    );
  }
  const step = mint.progress?.step;
  const tokenId = mint.result?.blockchain.tokenId ?? mint.progress?.tokenId;
  const transaction = mint.result?.blockchain.transactionHash ?? mint.progress?.transactionHash;
  const attention = mint.progress?.attention;
  return (
    <section className="card mint" aria-labelledby="mint-heading">
      <h2 id="mint-heading">
        Mint of chip <code>{chipUid}</code>
      </h2>
      <p role="status" aria-live="polite">
        <strong>
          {mint.status === 'RUNNING' ? 'Running' : mint.status === 'COMPLETED' ? 'Completed' : 'Failed'}
        </strong>
        {mint.status === 'RUNNING' && step
          ? ` — step ${STEPS.indexOf(step) + 1} of 4: ${STEP_TEXT[step]}`
          : ''}
      </p>
      {mint.status === 'RUNNING' && step ? (
        <ol className="steps">
          {STEPS.map((name, index) => (
            <li
              key={name}
              aria-current={name === step ? 'step' : undefined}
              className={index < STEPS.indexOf(step) ? 'done' : undefined}
            >
              {STEP_TEXT[name]}
            </li>
          ))}
        </ol>
      ) : null}
      {transaction ? (
        <p>
          Transaction: <code className="wrap">{transaction}</code>
        </p>
      ) : null}
      {attention ? (
        <div className="attention" role="alert">
          <p>
            <strong>Needs operator attention:</strong> the token is on chain but recording it has failed (
            {attention.failedRounds} {attention.failedRounds === 1 ? 'round' : 'rounds'} of attempts); the
            mint keeps retrying.
          </p>
          <p className="hint">
            Last error: <code className="wrap">{attention.error}</code>
          </p>
        </div>
      ) : null}
      {mint.status === 'FAILED' && mint.error ? (
        <p className="error">
          {mint.error.message} ({mint.error.code})
        </p>
      ) : null}
      {mint.status === 'COMPLETED' && tokenId ? (
        <p>
          <a href={`/console/passports/${tokenId}`} onClick={linkHandler(`/passports/${tokenId}`)}>
            Open passport {tokenId}
          </a>
        </p>
      ) : null}
    </section>
  );
}
