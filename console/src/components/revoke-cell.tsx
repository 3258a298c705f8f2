import { ConfirmRemove } from './confirm-remove.tsx';

interface RevokeCellProps {
  /** The row's name in the buttons' texts. */
  name: string;
  confirming: boolean;
  busy: boolean;
  onAsk: () => void;
  onCancel: () => void;
  onRevoke: () => void;
}

/** The action cell of a credential's row (an API key, an OAuth client): Revoke, then its confirmation. */
export function RevokeCell({ name, confirming, busy, onAsk, onCancel, onRevoke }: RevokeCellProps) {
  return (
    <td>
      <div className="actions">
        <ConfirmRemove
          name={name}
          verb="Revoke"
          doing="revoking"
          confirming={confirming}
          busy={busy}
          onAsk={onAsk}
          onCancel={onCancel}
          onConfirm={onRevoke}
        />
      </div>
    </td>
  );
}
