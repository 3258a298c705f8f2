import { escapePointer } from '../../../src/passport/content/merge-layers.ts';
import type { PageVerdict, TimelineEntry, VerifyPageModel } from '../../../src/passport/views/page-model.ts';
import { VERDICT_TEXT } from '../../../src/passport/views/verdict-text.ts';
import { reopenNotice } from './reopen-notice.ts';

/** Escapes text for HTML content and double-quoted attributes. */
export function esc(value: string | number): string {
  return String(value)
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

const dateTime = new Intl.DateTimeFormat('en-GB', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'UTC',
});
const dateOnly = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' });

function time(date: Date, withTime = true): string {
  const shown = withTime ? `${dateTime.format(date)} UTC` : dateOnly.format(date);
  return `<time datetime="${esc(date.toISOString())}">${esc(shown)}</time>`;
}

function shortHash(hash: string): string {
  return `<code class="hash" title="${esc(hash)}">${esc(`${hash.slice(0, 10)}…${hash.slice(-8)}`)}</code>`;
}

function coordinates(latitude: number, longitude: number): string {
  const lat = `${Math.abs(latitude).toFixed(4)}° ${latitude >= 0 ? 'N' : 'S'}`;
  const lon = `${Math.abs(longitude).toFixed(4)}° ${longitude >= 0 ? 'E' : 'W'}`;
  return `${lat}, ${lon}`;
}

/** The seal's mark per verdict: a check, an exclamation mark or a cross. */
export const SEAL_MARKS = {
  check: 'M15 27 l7 7 l15 -16',
  warn: 'M26 14 v15 M26 36 v2',
  cross: 'M18 18 l16 16 M34 18 l-16 16',
} as const;

function verdictParts(verdict: PageVerdict, model: VerifyPageModel) {
  switch (verdict.kind) {
    case 'authentic':
    case 'replayed':
    case 'forged':
    case 'unverifiable': {
      const text = VERDICT_TEXT[verdict.kind];
      const mark = verdict.kind === 'authentic' ? 'check' : verdict.kind === 'forged' ? 'cross' : 'warn';
      return { ...text, mark, when: `Tag checked ${time(verdict.checkedAt)}.` } as const;
    }
    case 'expired':
      return {
        title: 'Scan the tag again',
        message: 'This tap’s result is more than ten minutes old. Tap or scan the tag for a fresh check.',
        mark: 'warn',
        when: '',
      } as const;
    default:
      if (model.status === 'REVOKED') {
        return {
          title: 'Passport revoked',
          message: 'The manufacturer revoked this passport: do not rely on it as proof of this product.',
          mark: 'cross',
          when: '',
        } as const;
      }
      if (model.status === 'RECYCLED') {
        return {
          title: 'Recycled product',
          message: 'This product was recycled; its passport is closed and kept as its record.',
          mark: 'check',
          when: `Issued ${time(model.mintedAt, false)}.`,
        } as const;
      }
      return {
        title: 'Registered passport',
        message:
          'This passport is recorded on chain. To check the product in your hands, scan or tap its NFC tag.',
        mark: 'check',
        when: `Issued ${time(model.mintedAt, false)}.`,
      } as const;
  }
}

function verdictSection(model: VerifyPageModel): string {
  const parts = verdictParts(model.verdict, model);
  const modifier =
    model.verdict.kind === 'none' && model.status === 'REVOKED' ? 'revoked' : model.verdict.kind;
  return `<section id="verdict" class="verdict verdict--${modifier}" data-verdict="${model.verdict.kind}" aria-labelledby="verdict-title" aria-live="polite">
  <svg class="seal" viewBox="0 0 52 52" aria-hidden="true" focusable="false"><circle class="seal__ring" cx="26" cy="26" r="23"/><path class="seal__mark" d="${SEAL_MARKS[parts.mark]}"/></svg>
  <div class="verdict__text">
    <h1 id="verdict-title">${esc(parts.title)}</h1>
    <p id="verdict-message">${esc(parts.message)}</p>
    <p id="verdict-time" class="meta">${parts.when}</p>
  </div>
</section>`;
}

const STATUS_LABELS: Record<string, string> = {
  ACTIVE: 'Active',
  RECYCLED: 'Recycled',
  REVOKED: 'Revoked',
  SUSPENDED: 'Suspended',
  ARCHIVED: 'Archived',
};

function statusNotice(model: VerifyPageModel): string {
  if (model.status === 'REVOKED') {
    const when = model.revokedAt ? ` on ${time(model.revokedAt, false)}` : '';
    const reason = model.revocationReason
      ? `: ${esc(model.revocationReason)}${/[.!?]$/.test(model.revocationReason) ? '' : '.'}`
      : '.';
    return `<p class="notice notice--revoked" id="status-notice"><strong>Revoked.</strong> The manufacturer revoked this passport${when}${reason} Its credential is no longer valid.</p>`;
  }
  if (model.status === 'RECYCLED') {
    const when = model.revokedAt ? ` on ${time(model.revokedAt, false)}` : '';
    return `<p class="notice notice--recycled" id="status-notice"><strong>Recycled.</strong> This product was recycled${when}; its passport is closed and its circular deposit was paid out.</p>`;
  }
  // Set by the manufacturer through the EN 18222 status change (docs/en18222.md, "Status changes").
  if (model.status === 'SUSPENDED') {
    return '<p class="notice notice--revoked" id="status-notice"><strong>Suspended.</strong> The manufacturer has suspended this passport for now: its data is not being updated until it is reactivated.</p>';
  }
  if (model.status === 'ARCHIVED') {
    return '<p class="notice notice--recycled" id="status-notice"><strong>Archived.</strong> The manufacturer closed this passport; it is kept unchanged as a record, every earlier version included.</p>';
  }
  return '';
}

export function fact(term: string, value: string | null): string {
  return value === null ? '' : `<div class="facts__row"><dt>${esc(term)}</dt><dd>${value}</dd></div>`;
}

function productSection(model: VerifyPageModel): string {
  const status = STATUS_LABELS[model.status] ?? model.status;
  const materials =
    model.materials.length === 0
      ? ''
      : `<h3>Materials</h3><ul class="materials">${model.materials
          .map((m) => `<li>${esc(m.name)}: ${esc(m.percentage)} %</li>`)
          .join('')}</ul>`;
  return `<section id="product" class="card" aria-labelledby="product-title">
  <h2 id="product-title">${esc(model.name)}</h2>
  ${model.imagePath ? `<img class="product__image" src="${esc(model.imagePath)}" alt="${esc(model.name)}" width="320" height="320">` : ''}
  ${model.description ? `<p>${esc(model.description)}</p>` : ''}
  <dl class="facts">
    ${fact('Status', `<span id="status" class="badge badge--${esc(model.status.toLowerCase())}" data-status="${esc(model.status)}">${esc(status)}</span>`)}
    ${fact('Manufacturer', esc(model.manufacturer) + (model.manufacturerAddress ? `<br><span class="meta">${esc(model.manufacturerAddress)}</span>` : ''))}
    ${fact('GTIN', `<span class="mono">${esc(model.gtin)}</span>`)}
    ${fact('Serial number', `<span class="mono">${esc(model.serial)}</span>`)}
    ${fact('Batch', model.batch && esc(model.batch))}
    ${fact('Country of origin', model.originCountry && esc(model.originCountry))}
    ${fact('Category', model.category && esc(model.category))}
    ${fact('Declaration of conformity', model.conformityUrl && `<a id="conformity" href="${esc(model.conformityUrl)}" rel="noopener">View the EU declaration of conformity</a>`)}
    ${fact('Verified tag scans', `<span id="verification-count">${esc(model.verificationCount)}</span>`)}
  </dl>
  ${materials}
  ${partOf(model)}
</section>`;
}

/** "Part of batch LOT-7 and model 0…": links to the passports the item shares data with. */
function partOf(model: VerifyPageModel): string {
  const levels = [...(model.partOf ?? [])].reverse();
  if (levels.length === 0) return '';
  const links = levels.map(
    (level) =>
      `<a id="part-of-${level.granularity}" href="${esc(level.href)}">${esc(level.label)}</a> (${level.granularity} passport)`,
  );
  return `<p id="part-of">Part of ${links.join(' and ')}: this passport shows their data together with its own.</p>`;
}

/** `batteryMassKg` → `Battery mass kg`: a field name as a label. */
function label(name: string): string {
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const FROM_LEVEL = { model: 'from the model passport', batch: 'from the batch passport' } as const;

/**
 * Product-group data as nested definition lists (field names as labels, values as text); a value a model or
 * batch passport gave (`inherited`, RFC 6901 pointer → level) says so beside it.
 */
export function dataList(
  value: Record<string, unknown>,
  inherited: Readonly<Record<string, 'model' | 'batch'>> = {},
  pointer = '',
): string {
  const rendered = (item: unknown, at: string): string => {
    if (Array.isArray(item)) {
      return item.every((entry) => typeof entry !== 'object' || entry === null)
        ? esc(item.join(', '))
        : `<ol class="data-list">${item.map((entry) => `<li>${rendered(entry, '')}</li>`).join('')}</ol>`;
    }
    if (typeof item === 'object' && item !== null) {
      return dataList(item as Record<string, unknown>, at === '' ? {} : inherited, at);
    }
    return esc(String(item));
  };
  const note = (at: string) => {
    const level = at === '' ? undefined : inherited[at];
    return level
      ? ` <span class="source" data-from="${level}" data-pointer="${esc(at)}">${FROM_LEVEL[level]}</span>`
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
): string {
  return groups
    .map(
      (
        group,
        index,
      ) => `<section id="product-group-${index}" class="card" aria-labelledby="product-group-${index}-title">
  <h2 id="product-group-${index}-title">${esc(group.title)}</h2>
  ${dataList(group.data, group.inherited)}
</section>`,
    )
    .join('\n');
}

function timelineItem(entry: TimelineEntry): string {
  const place = entry.place
    ? `<p class="timeline__place">${esc(entry.place)}${entry.latitude !== null && entry.longitude !== null ? ` <span class="meta">(${esc(coordinates(entry.latitude, entry.longitude))})</span>` : ''}</p>`
    : '';
  const tx = entry.transactionHash
    ? `<p class="timeline__tx">Transaction ${shortHash(entry.transactionHash)}</p>`
    : '<p class="timeline__tx meta">Being anchored on chain…</p>';
  return `<li class="timeline__item" data-action="${esc(entry.action)}">
      <h3>${esc(entry.label)}</h3>
      <p class="meta">${time(entry.time)}</p>
      ${place}
      ${tx}
    </li>`;
}

function provenanceSection(model: VerifyPageModel): string {
  return `<section id="provenance" class="card" aria-labelledby="provenance-title">
  <h2 id="provenance-title">On-chain provenance</h2>
  <ol class="timeline">
    ${model.timeline.map(timelineItem).join('\n    ')}
  </ol>
</section>`;
}

function recyclingSection(model: VerifyPageModel): string {
  const body =
    model.status === 'RECYCLED'
      ? 'This product has been recycled and its circular deposit released to the recycler.'
      : 'When this product reaches a certified recycler, its passport records the recycling on chain and the deposit locked at minting is paid out to the recycler.';
  return `<section id="recycling" class="card" aria-labelledby="recycling-title">
  <h2 id="recycling-title">Recycling</h2>
  <p>${esc(body)}</p>
</section>`;
}

const SCAN_SECTION = `<section id="scan-section" class="card scan" aria-labelledby="scan-title">
  <h2 id="scan-title">Check the tag yourself</h2>
  <p>The product carries an NFC tag that signs every tap with a key only the genuine chip holds.</p>
  <button id="scan" type="button" class="button" hidden>Scan the tag</button>
  <p id="scan-status" class="scan__status" role="status"></p>
  <p id="nfc-unavailable" class="meta">Reading the tag from this page needs Web NFC (Chrome on Android). You can also tap the tag with your phone: it opens this page with the result.</p>
</section>`;

export interface PageAssets {
  css: string;
  js: string;
  icon: string;
}

/** A test passport's page says so at the top, so it cannot pass for a live one. */
export function testBanner(environment: string): string {
  return environment === 'test'
    ? '<p class="test-banner" role="note">Test environment: this passport does not describe a real product.</p>'
    : '';
}

/** A page's start up to its own `<link>`s: language, viewport, title, our icon and stylesheet. */
export function pageHead(title: string, assets: Pick<PageAssets, 'css' | 'icon'>): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${esc(title)}</title>
<link rel="icon" type="image/svg+xml" href="${esc(assets.icon)}">
<link rel="stylesheet" href="${esc(assets.css)}">`;
}

/** The verification page: complete without JavaScript; the script only adds scanning with Web NFC. */
export function renderVerifyPage(model: VerifyPageModel, assets: PageAssets): string {
  return `${pageHead(`${model.name} · Digital Product Passport`, assets)}
<link rel="alternate" type="application/ld+json" href="${esc(model.links.vc)}" title="Verifiable credential">
<link rel="linkset" type="application/linkset+json" href="${esc(model.links.linkset)}">
<script src="${esc(assets.js)}" defer></script>
</head>
<body>
<a class="skip-link" href="#product">Skip to the product facts</a>
<header class="masthead"><p class="masthead__title">Digital Product Passport</p></header>
<main id="main" data-gtin="${esc(model.gtin)}" data-serial="${esc(model.serial)}" data-env="${esc(model.environment)}">
${testBanner(model.environment)}
${verdictSection(model)}
${reopenNotice(model.verdict)}
${statusNotice(model)}
${SCAN_SECTION}
${productSection(model)}
${productGroupCards(model.productGroups ?? [])}
${provenanceSection(model)}
${recyclingSection(model)}
<footer class="footer">
  <h2>Machine-readable passport</h2>
  <ul>
    <li><a href="${esc(model.links.vc)}">Verifiable credential (JSON-LD)</a></li>
    <li><a href="${esc(model.links.linkset)}">GS1 linkset</a></li>
    <li><a href="${esc(model.links.aas)}">Asset administration shell</a></li>
  </ul>
  <p class="meta">Smart contract <span class="mono">${esc(model.contractAddress)}</span> · minted in transaction ${shortHash(model.mintTransaction)}</p>
</footer>
</main>
</body>
</html>
`;
}
