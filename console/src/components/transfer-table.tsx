import { useState } from 'react';
import { BASE, linkHandler } from '../router.ts';
import type { Transfer, TransferStatus } from '../transfers-api.ts';
import { ActionsHeader } from './actions-header.tsx';

type Action = 'accept' | 'decline' | 'withdraw';

interface TransferTableProps {
  transfers: Transfer[];
  /** received: this company decides (accept, decline); made: it may withdraw. */
  direction: 'received' | 'made';
  mayDecide: boolean;
  busy: boolean;
  onDecide: (transfer: Transfer, action: Action) => void;
}

const date = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' });
const when = (iso: string) => date.format(new Date(iso));

const STATE: Record<TransferStatus, string> = {
  offered: 'Waiting for a decision',
  accepted: 'Accepted',
  declined: 'Declined',
  withdrawn: 'Withdrawn',
  expired: 'Expired',
};

function stateText(transfer: Transfer) {
  if (transfer.status === 'offered') return `${STATE.offered} (open until ${when(transfer.expiresAt)})`;
  if (transfer.status === 'expired') return `Expired on ${when(transfer.expiresAt)}`;
  return `${STATE[transfer.status]}${transfer.decidedAt ? ` on ${when(transfer.decidedAt)}` : ''}`;
}

/** One list of transfers (offered to this company, or by it) with the decisions open to it. */
export function TransferTable({ transfers, direction, mayDecide, busy, onDecide }: TransferTableProps) {
  // An acceptance is final: it asks once more, naming what it means.
  const [confirming, setConfirming] = useState<string | null>(null);
  if (transfers.length === 0) {
    return <p>{direction === 'received' ? 'No passport was offered to you.' : 'You offered no passport.'}</p>;
  }
  const other = direction === 'received' ? 'From' : 'To';
  return (
    <table className="keys">
      <caption className="visually-hidden">
        {direction === 'received' ? 'Passports offered to you' : 'Passports you offered'}
      </caption>
      <thead>
        <tr>
          <th scope="col">Passport</th>
          <th scope="col">{other}</th>
          <th scope="col">State</th>
          <th scope="col">Offered</th>
          <ActionsHeader />
        </tr>
      </thead>
      <tbody>
        {transfers.map((transfer) => {
          const company = direction === 'received' ? transfer.fromCompanyName : transfer.toCompanyName;
          // The passport's page is its current owner's: the receiver's once accepted, the brand's before.
          const ours = (direction === 'received') === (transfer.status === 'accepted');
          const open = transfer.status === 'offered';
          return (
            <tr key={transfer.id}>
              <td data-label="Passport">
                {ours ? (
                  <a
                    href={`${BASE}/passports/${transfer.tokenId}`}
                    onClick={linkHandler(`/passports/${transfer.tokenId}`)}
                  >
                    Passport {transfer.tokenId}
                  </a>
                ) : (
                  `Passport ${transfer.tokenId}`
                )}
                {transfer.note ? <div className="hint">“{transfer.note}”</div> : null}
              </td>
              <td data-label={other}>{company}</td>
              <td data-label="State">{stateText(transfer)}</td>
              <td data-label="Offered">{when(transfer.offeredAt)}</td>
              <td>
                {!open || !mayDecide ? null : direction === 'made' ? (
                  <button
                    type="button"
                    className="secondary"
                    disabled={busy}
                    onClick={() => onDecide(transfer, 'withdraw')}
                  >
                    Withdraw the offer of passport {transfer.tokenId}
                  </button>
                ) : confirming === transfer.id ? (
                  <div className="confirm">
                    <p>
                      Take over passport {transfer.tokenId} from {company}? Its content, history and chip
                      become your company’s responsibility at once.
                    </p>
                    <div className="actions">
                      <button type="button" disabled={busy} onClick={() => onDecide(transfer, 'accept')}>
                        Confirm taking over passport {transfer.tokenId}
                      </button>
                      <button type="button" className="secondary" onClick={() => setConfirming(null)}>
                        Cancel
                      </button>
                    </div>
                  </div>
                ) : (
                  <div className="actions">
                    <button type="button" disabled={busy} onClick={() => setConfirming(transfer.id)}>
                      Accept passport {transfer.tokenId}
                    </button>
                    <button
                      type="button"
                      className="secondary"
                      disabled={busy}
                      onClick={() => onDecide(transfer, 'decline')}
                    >
                      Decline passport {transfer.tokenId}
                    </button>
                  </div>
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
