import { type FormEvent, useState } from 'react';
import { ApiError, type Environment } from '../api.ts';
import { messageOf } from '../hooks/use-failure.ts';
import { passports } from '../passports-api.ts';
import { transfers } from '../transfers-api.ts';
import { ErrorAlert } from './error-alert.tsx';

interface TransferOfferProps {
  environment: Environment;
  /** A passport named in the address (?tokenId=, from its page). */
  tokenId: string;
  onOffered: (message: string) => void;
  onCancel: () => void;
}

interface Draft {
  tokenId: string;
  dppId: string;
  toCompanyId: string;
  expiresInDays: number;
  note: string;
}

/**
 * Offers one passport to another economic operator: the passport by its token id, the receiver by its company id
 * (the receiver reads it on its own Transfers page), then a confirmation saying what happens.
 */
export function TransferOffer({ environment, tokenId, onOffered, onCancel }: TransferOfferProps) {
  const [draft, setDraft] = useState<Draft | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const check = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const token = String(form.get('tokenId')).trim();
    setError(null);
    setBusy(true);
    try {
      const { passport } = await passports.get(environment, token);
      setDraft({
        tokenId: token,
        dppId: passport.digitalProductPassportId,
        toCompanyId: String(form.get('toCompanyId')).trim(),
        expiresInDays: Number(form.get('expiresInDays')),
        note: String(form.get('note') ?? '').trim(),
      });
    } catch (caught) {
      setError(
        caught instanceof ApiError && (caught.status === 404 || caught.status === 400)
          ? `No passport ${token} of your company in the ${environment} environment.`
          : messageOf(caught, 'The passport could not be read.'),
      );
    } finally {
      setBusy(false);
    }
  };

  const offer = async (confirmed: Draft) => {
    setError(null);
    setBusy(true);
    try {
      await transfers.offer(environment, confirmed.dppId, {
        toCompanyId: confirmed.toCompanyId,
        expiresInDays: confirmed.expiresInDays,
        ...(confirmed.note ? { note: confirmed.note } : {}),
      });
      onOffered(`Passport ${confirmed.tokenId} offered: it stays yours until the other company accepts.`);
    } catch (caught) {
      setDraft(null);
      setError(messageOf(caught, 'The offer could not be made.'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="card">
      <h2>Offer a passport to another operator</h2>
      <ErrorAlert error={error} />
      {draft === null ? (
        <form className="stacked-form" onSubmit={check}>
          <label htmlFor="offer-token">Passport (token id)</label>
          <input id="offer-token" name="tokenId" required inputMode="numeric" defaultValue={tokenId} />
          <label htmlFor="offer-company">Company id of the receiving operator</label>
          <input
            id="offer-company"
            name="toCompanyId"
            required
            aria-describedby="offer-company-hint"
            pattern="[0-9a-fA-F\-]{36}"
          />
          <p className="hint" id="offer-company-hint">
            The receiving company finds its id on its own Transfers page.
          </p>
          <label htmlFor="offer-days">The offer stays open for (days, 1 to 90)</label>
          <input
            id="offer-days"
            name="expiresInDays"
            type="number"
            min={1}
            max={90}
            defaultValue={14}
            required
          />
          <label htmlFor="offer-note">Note to the receiver (optional)</label>
          <input id="offer-note" name="note" maxLength={500} />
          <div className="actions">
            <button type="submit" disabled={busy}>
              Review the offer
            </button>
            <button type="button" className="secondary" onClick={onCancel}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <div className="confirm">
          <p>
            Offer passport <strong>{draft.tokenId}</strong> to company{' '}
            <code className="wrap">{draft.toCompanyId}</code> for {draft.expiresInDays} days? Once it accepts,
            the passport, its history and its chip are that company’s responsibility, and yours can no longer
            change it. Until then you may withdraw the offer.
          </p>
          <div className="actions">
            <button type="button" disabled={busy} onClick={() => offer(draft)}>
              Confirm the offer of passport {draft.tokenId}
            </button>
            <button type="button" className="secondary" onClick={() => setDraft(null)}>
              Back
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
