/**
 * Previous / Next under a keyset-paged list. `cursors` are the pages visited (the last one is shown; null is the
 * first page); nothing is shown while there is a single page.
 */
export function Pager({
  label,
  cursors,
  nextCursor,
  onChange,
}: {
  label: string;
  cursors: (string | null)[];
  nextCursor: string | null;
  onChange: (cursors: (string | null)[]) => void;
}) {
  if (cursors.length === 1 && !nextCursor) return null;
  return (
    <nav className="pager" aria-label={label}>
      <button
        type="button"
        className="secondary"
        disabled={cursors.length === 1}
        onClick={() => onChange(cursors.slice(0, -1))}
      >
        Previous page
      </button>
      <span>Page {cursors.length}</span>
      <button
        type="button"
        className="secondary"
        disabled={!nextCursor}
        onClick={() => onChange([...cursors, nextCursor])}
      >
        Next page
      </button>
    </nav>
  );
}
