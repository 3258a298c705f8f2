import { BASE } from '../router.ts';

/** Which passports the list shows: serialised items, batch passports or model passports. */
export type PassportKind = 'items' | 'batches' | 'models';

const KINDS: { kind: PassportKind; label: string }[] = [
  { kind: 'items', label: 'Items' },
  { kind: 'batches', label: 'Batches' },
  { kind: 'models', label: 'Models' },
];

export const kindPath = (kind: PassportKind) => `/passports${kind === 'items' ? '' : `?level=${kind}`}`;

/** The kind in the address (?level=batches), so Back from a batch passport returns to the batches. */
export function kindFromAddress(): PassportKind {
  const level = new URLSearchParams(window.location.search).get('level');
  return level === 'batches' || level === 'models' ? level : 'items';
}

/** Links between the three lists (a real link each: keyboard, new tab); the current one is marked. */
export function LevelTabs({
  kind,
  onChange,
}: {
  kind: PassportKind;
  onChange: (kind: PassportKind) => void;
}) {
  return (
    <nav className="level-tabs" aria-label="Kinds of passport">
      {KINDS.map((entry) => (
        <a
          key={entry.kind}
          href={`${BASE}${kindPath(entry.kind)}`}
          aria-current={entry.kind === kind ? 'page' : undefined}
          onClick={(event) => {
            if (event.metaKey || event.ctrlKey || event.shiftKey) return;
            event.preventDefault();
            window.history.pushState(null, '', `${BASE}${kindPath(entry.kind)}`);
            onChange(entry.kind);
          }}
        >
          {entry.label}
        </a>
      ))}
    </nav>
  );
}
