const TEXT: Record<string, string> = { ACTIVE: 'Active', REVOKED: 'Revoked', RECYCLED: 'Recycled' };

/** A passport's status as a word with its colour (the word carries the meaning, not the colour). */
export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge badge-${status.toLowerCase()}`}>{TEXT[status] ?? status}</span>;
}
