import { parseSpecificationId } from '../../../src/passport/content/content-specification.ts';
import { escapePointer } from '../../../src/passport/content/merge-layers.ts';
import { countryName, fieldLabel, groupTitle } from '../../../src/passport/views/i18n/messages.ts';
import { esc, type PageText } from './page-text.ts';

/** One product group's card: its content specification, its English title (the fallback), its data. */
export interface ProductGroupCard {
  specification?: string;
  title: string;
  data: Record<string, unknown>;
  /** The values a model or batch passport gave: RFC 6901 pointer into `data` → that level. */
  inherited?: Readonly<Record<string, 'model' | 'batch'>>;
}

/** Fields whose value is an ISO 3166 country code: shown by the country's name. */
const COUNTRY_FIELDS = new Set(['countryOfProduction', 'countryCode', 'originCountry']);

/** A leaf value as the page's locale writes it: numbers, calendar dates, country codes; links clickable. */
function leaf(text: PageText, field: string, value: unknown): string {
  if (typeof value === 'number') {
    return esc(new Intl.NumberFormat(text.language, { maximumFractionDigits: 6 }).format(value));
  }
  const shown = String(value);
  if (typeof value !== 'string') return esc(shown);
  if (COUNTRY_FIELDS.has(field)) return esc(countryName(text.language, shown));
  if (/^\d{4}-\d{2}-\d{2}$/.test(shown) && !Number.isNaN(Date.parse(shown))) {
    return text.time(new Date(`${shown}T00:00:00Z`), false);
  }
  if (/^https:\/\/\S+$/.test(shown)) return `<a href="${esc(shown)}" rel="noopener">${esc(shown)}</a>`;
  return esc(shown);
}

/**
 * Product-group data as nested definition lists (field names in the page's language, values as its locale
 * writes them); a value a model or batch passport gave (`inherited`) says so beside it.
 */
export function dataList(
  text: PageText,
  value: Record<string, unknown>,
  inherited: Readonly<Record<string, 'model' | 'batch'>> = {},
  pointer = '',
): string {
  const rendered = (field: string, item: unknown, at: string): string => {
    if (Array.isArray(item)) {
      return item.every((entry) => typeof entry !== 'object' || entry === null)
        ? item.map((entry) => leaf(text, field, entry)).join(', ')
        : `<ol class="data-list">${item.map((entry) => `<li>${rendered(field, entry, '')}</li>`).join('')}</ol>`;
    }
    if (typeof item === 'object' && item !== null) {
      return dataList(text, item as Record<string, unknown>, at === '' ? {} : inherited, at);
    }
    return leaf(text, field, item);
  };
  const from = { model: text.m.facts.fromModel, batch: text.m.facts.fromBatch };
  const note = (at: string) => {
    const level = at === '' ? undefined : inherited[at];
    return level
      ? ` <span class="source" data-from="${level}" data-pointer="${esc(at)}">${esc(from[level])}</span>`
      : '';
  };
  return `<dl class="facts">${Object.entries(value)
    .map(([name, item]) => {
      const at = `${pointer}/${escapePointer(name)}`;
      return `<div class="facts__row"><dt data-field="${esc(name)}">${esc(fieldLabel(text.language, name))}</dt><dd>${rendered(name, item, at)}${note(at)}</dd></div>`;
    })
    .join('')}</dl>`;
}

/** Product-group data, one card per content specification (its title, then its fields), in the page's language. */
export function productGroupCards(text: PageText, groups: readonly ProductGroupCard[]): string {
  return groups
    .map((group, index) => {
      const kind = group.specification ? parseSpecificationId(group.specification)?.group : undefined;
      return `<section id="product-group-${index}" class="card" aria-labelledby="product-group-${index}-title">
  <h2 id="product-group-${index}-title">${esc(groupTitle(text.language, kind, group.title))}</h2>
  ${dataList(text, group.data, group.inherited)}
</section>`;
    })
    .join('\n');
}
