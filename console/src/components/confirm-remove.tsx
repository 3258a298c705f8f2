interface ConfirmRemoveProps {
  /** What the row is called in the buttons' texts (a key's name, an endpoint's URL). */
  name: string;
  /** The button's word, e.g. “Revoke”, and the confirmation's, e.g. “revoking”. */
  verb: string;
  doing: string;
  /** True once the first button was pressed: the confirmation and Cancel show instead. */
  confirming: boolean;
  busy: boolean;
  onAsk: () => void;
  onCancel: () => void;
  onConfirm: () => void;
}

/** A two-step removal in a table row: the button, then “Confirm … <name>” and Cancel. */
export function ConfirmRemove({
  name,
  verb,
  doing,
  confirming,
  busy,
  onAsk,
  onCancel,
  onConfirm,
}: ConfirmRemoveProps) {
  return confirming ? (
    <>
      <button type="button" className="danger" disabled={busy} onClick={onConfirm}>
        Confirm {doing} {name}
      </button>
      <button type="button" className="secondary" onClick={onCancel}>
        Cancel
      </button>
    </>
  ) : (
    <button type="button" className="secondary" aria-label={`${verb} ${name}`} onClick={onAsk}>
      {verb}
    </button>
  );
}
