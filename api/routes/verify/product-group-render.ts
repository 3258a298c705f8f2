import { escapePointer } from '../../../src/passport/content/merge-layers.ts';
import { esc } from './page-text.ts';

/** `batteryMassKg` → `Battery mass kg`: a field name as a label. */
function label(name: string): string {
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** What a value inherited from a level says beside it. */
export interface FromLevel {
  model: string;
  batch: string;
}
const FROM_LEVEL: FromLevel = { model: 'from the model passport', batch: 'from the batch passport' };

/**
 * Product-group data as nested definition lists (field names as labels, values as text); a value a model or
 * batch passport gave (`inherited`, RFC 6901 pointer → level) says so beside it.
 */
export function dataList(
  value: Record<string, unknown>,
  inherited: Readonly<Record<string, 'model' | 'batch'>> = {},
  pointer = '',
  from: FromLevel = FROM_LEVEL,
): string {
  const rendered = (item: unknown, at: string): string => {
    if (Array.isArray(item)) {
      return item.every((entry) => typeof entry !== 'object' || entry === null)
        ? esc(item.join(', '))
        : `<ol class="data-list">${item.map((entry) => `<li>${rendered(entry, '')}</li>`).join('')}</ol>`;
    }
    if (typeof item === 'object' && item !== null) {
      return dataList(item as Record<string, unknown>, at === '' ? {} : inherited, at, from);
    }
    return esc(String(item));
  };
  const note = (at: string) => {
    const level = at === '' ? undefined : inherited[at];
    return level
      ? ` <span class="source" data-from="${level}" data-pointer="${esc(at)}">${esc(from[level])}</span>`
      : '';
  };
  return `<dl class="facts">${Object.entries(value)
    .map(([name, item]) => {
      const at = `${pointer}/${escapePointer(name)}`;
      return `<div class="facts__row"><dt>${esc(label(name))}</dt><dd>${rendered(item, at)}${note(at)}</dd></div>`;
    })
    .join('')}</dl>`;
}

/** Product-group data, one card per content specification (its title, then its fields). */
export function productGroupCards(
  groups: readonly {
    title: string;
    data: Record<string, unknown>;
    inherited?: Record<string, 'model' | 'batch'>;
  }[],
  from: FromLevel = FROM_LEVEL,
): string {
  return groups
    .map(
      (
        group,
        index,
      ) => `<section id="product-group-${index}" class="card" aria-labelledby="product-group-${index}-title">
  <h2 id="product-group-${index}-title">${esc(group.title)}</h2>
  ${dataList(group.data, group.inherited, '', from)}
</section>`,
    )
    .join('\n');
}
