import { useCallback, useEffect, useState } from 'react';
import type { Environment, SessionUser } from '../api.ts';
import { CopyableValue } from '../components/copy-button.tsx';
import { ErrorAlert } from '../components/error-alert.tsx';
import { LiveStatus } from '../components/live-status.tsx';
import { TransferOffer } from '../components/transfer-offer.tsx';
import { TransferTable } from '../components/transfer-table.tsx';
import { useFailure } from '../hooks/use-failure.ts';
import { usePageHeading } from '../hooks/use-page-heading.ts';
import { useRight } from '../rights.tsx';
import { type Transfer, transfers } from '../transfers-api.ts';

interface TransfersProps {
  user: SessionUser;
  environment: Environment;
  onSessionEnded: (error: unknown) => boolean;
}

const VERBS = { accept: 'accepted', decline: 'declined', withdraw: 'withdrawn' } as const;

/**
 * Settings › Transfers: passports handed to another economic operator or offered to this company (EN 18239,
 * docs/exit.md). Offers received first (they wait for a decision), then offers made. Owners and developers
 * offer, accept, decline and withdraw; the API applies the same rule.
 */
export function Transfers({ user, environment, onSessionEnded }: TransfersProps) {
  const { error, setError, fail } = useFailure(onSessionEnded);
  const heading = usePageHeading('Transfers');
  const [list, setList] = useState<{ companyId: string; transfers: Transfer[] } | null>(null);
  const presetToken = new URLSearchParams(window.location.search).get('tokenId') ?? '';
  const [offering, setOffering] = useState(presetToken !== '');
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);
  const mayDecide = useRight('managePassports');

  const load = useCallback(async () => {
    try {
      setList(await transfers.list(environment));
    } catch (caught) {
      fail(caught);
    }
  }, [environment, fail]);
  useEffect(() => {
    void load();
  }, [load]);

  const decide = async (transfer: Transfer, action: 'accept' | 'decline' | 'withdraw') => {
    setBusy(true);
    setError(null);
    setStatus('');
    try {
      await transfers.decide(environment, transfer.id, action);
      setStatus(
        action === 'accept'
          ? `Passport ${transfer.tokenId} is now your company’s: you can change it from its page.`
          : `The offer of passport ${transfer.tokenId} is ${VERBS[action]}.`,
      );
      await load();
    } catch (caught) {
      fail(caught);
      await load();
    } finally {
      setBusy(false);
    }
  };

  const received = list?.transfers.filter((t) => t.toCompanyId === list.companyId) ?? [];
  const made = list?.transfers.filter((t) => t.fromCompanyId === list.companyId) ?? [];
  return (
    <section aria-labelledby="transfers-heading">
      <div className="list-header">
        <h1 id="transfers-heading" ref={heading} tabIndex={-1}>
          Transfers
        </h1>
        {mayDecide && !offering ? (
          <button type="button" onClick={() => setOffering(true)}>
            Offer a passport
          </button>
        ) : null}
      </div>
      <p className="lede">
        Hand the responsibility for a <strong>{environment}</strong> passport to another economic operator
        (selling a product line, a second life), or take one over. The passport moves only when the receiving
        company accepts.
      </p>
      {list ? (
        <p>
          Your company id (another operator offers passports to it):{' '}
          <CopyableValue value={list.companyId} label="company id" />
        </p>
      ) : null}
      <LiveStatus status={status} className="success" />
      <ErrorAlert error={error} />
      {!mayDecide ? (
        <p className="notice">
          Your role is <strong>{user.role}</strong>: you can see the transfers; owners and developers offer,
          accept and decline them.
        </p>
      ) : null}
      {offering && mayDecide ? (
        <TransferOffer
          environment={environment}
          tokenId={presetToken}
          onCancel={() => setOffering(false)}
          onOffered={(message) => {
            setOffering(false);
            setStatus(message);
            void load();
          }}
        />
      ) : null}

      {list === null ? (
        <p role="status">Loading transfers…</p>
      ) : (
        <>
          <h2>Offered to you</h2>
          <TransferTable
            transfers={received}
            direction="received"
            mayDecide={mayDecide}
            busy={busy}
            onDecide={decide}
          />
          <h2>Offered by you</h2>
          <TransferTable
            transfers={made}
            direction="made"
            mayDecide={mayDecide}
            busy={busy}
            onDecide={decide}
          />
        </>
      )}
    </section>
  );
}
