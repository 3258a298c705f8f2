import {
  countryName,
  languageName,
  localAddress,
  materialName,
} from '../../../src/passport/views/i18n/messages.ts';
import type { PageVerdict, VerifyPageModel } from '../../../src/passport/views/page-model.ts';
import { chainSection, historySection } from './history-render.ts';
import { type OwnerFacts, ownerActions } from './owner-render.ts';
import type { PageBrand } from './page-brand.ts';
import { esc, languageSwitch, type PageText, pageText, withLanguage } from './page-text.ts';
import { productGroupCards } from './product-group-render.ts';
import { reopenNotice } from './reopen-notice.ts';

export { esc };

/** The seal's mark per verdict: a check, an exclamation mark or a cross. */
export const SEAL_MARKS = {
  check: 'M15 27 l7 7 l15 -16',
  warn: 'M26 14 v15 M26 36 v2',
  cross: 'M18 18 l16 16 M34 18 l-16 16',
} as const;

function verdictParts(text: PageText, verdict: PageVerdict, model: VerifyPageModel) {
  const v = text.m.verdict;
  switch (verdict.kind) {
    case 'authentic':
    case 'replayed':
    case 'forged':
    case 'unverifiable': {
      const mark = verdict.kind === 'authentic' ? 'check' : verdict.kind === 'forged' ? 'cross' : 'warn';
      return {
        ...v[verdict.kind],
        mark,
        when: text.html(v.checkedAt, { time: text.time(verdict.checkedAt) }),
      } as const;
    }
    case 'expired':
      return { ...v.expired, mark: 'warn', when: '' } as const;
    default: {
      const issued = text.html(v.issuedOn, { date: text.time(model.mintedAt, false) });
      if (model.status === 'REVOKED') return { ...v.revoked, mark: 'cross', when: '' } as const;
      if (model.status === 'RECYCLED') return { ...v.recycled, mark: 'check', when: issued } as const;
      return { ...v.registered, mark: 'check', when: issued } as const;
    }
  }
}

function verdictSection(text: PageText, model: VerifyPageModel): string {
  const parts = verdictParts(text, model.verdict, model);
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

function statusNotice(text: PageText, model: VerifyPageModel): string {
  const n = text.m.notice;
  const notice = (kind: string, lead: string, body: string) =>
    `<div class="notice notice--${kind}" id="status-notice" role="note"><p><strong>${esc(lead)}</strong> ${body}</p></div>`;
  const on = (withDate: string, without: string) =>
    model.revokedAt ? text.html(withDate, { date: text.time(model.revokedAt, false) }) : esc(without);
  if (model.status === 'REVOKED') {
    const reason = model.revocationReason
      ? ` ${text.html(n.revokedReason, { reason: esc(model.revocationReason) })}${/[.!?]$/.test(model.revocationReason) ? '' : '.'}`
      : '';
    return notice(
      'revoked',
      n.revokedLead,
      `${on(n.revokedOn, n.revoked)}${reason}</p><p id="status-meaning">${esc(n.revokedMeaning)}`,
    );
  }
  if (model.status === 'RECYCLED') {
    return notice(
      'recycled',
      n.recycledLead,
      `${on(n.recycledOn, n.recycled)}</p><p id="status-meaning">${esc(n.recycledMeaning)}`,
    );
  }
  // Set by the manufacturer through the EN 18222 status change (docs/en18222.md, "Status changes").
  if (model.status === 'SUSPENDED') return notice('revoked', n.suspendedLead, esc(n.suspended));
  if (model.status === 'ARCHIVED') return notice('recycled', n.archivedLead, esc(n.archived));
  return '';
}

export function fact(term: string, value: string | null): string {
  return value === null ? '' : `<div class="facts__row"><dt>${esc(term)}</dt><dd>${value}</dd></div>`;
}

function productSection(text: PageText, model: VerifyPageModel): string {
  const { m } = text;
  const status = (m.status as Record<string, string>)[model.status] ?? model.status;
  const materials =
    model.materials.length === 0
      ? ''
      : `<h3>${esc(m.facts.materials)}</h3><ul class="materials" id="materials">${model.materials
          .map(
            (material) =>
              `<li data-material="${esc(material.name)}">${text.html(m.facts.material, {
                material: esc(materialName(text.language, material.name)),
                share: esc(text.percent(material.percentage)),
              })}</li>`,
          )
          .join('')}</ul>`;
  const ownTexts = model.textsLanguage === text.language ? '' : ` lang="${esc(model.textsLanguage)}"`;
  const fallback =
    model.textsLanguage === text.language || (!model.description && !model.care)
      ? ''
      : `<p id="texts-language" class="meta">${text.html(text.m.brandTexts.fallback, {
          shown: esc(languageName(text.language, model.textsLanguage)),
          wanted: esc(languageName(text.language, text.language)),
        })}</p>`;
  return `<section id="product" class="card" aria-labelledby="product-title">
  <h2 id="product-title"${ownTexts}>${esc(model.name)}</h2>
  ${model.imagePath ? `<img class="product__image" src="${esc(model.imagePath)}" alt="${esc(model.name)}" width="640" height="640" sizes="(min-width: 40rem) 38rem, calc(100vw - 4rem)" decoding="async">` : ''}
  ${model.description ? `<p id="product-description"${ownTexts}>${esc(model.description)}</p>` : ''}
  ${fallback}
  <dl class="facts">
    ${fact(m.status.label, `<span id="status" class="badge badge--${esc(model.status.toLowerCase())}" data-status="${esc(model.status)}">${esc(status)}</span>`)}
    ${fact(m.facts.manufacturer, esc(model.manufacturer) + (model.manufacturerAddress ? `<br><span class="meta">${esc(localAddress(text.language, model.manufacturerAddress))}</span>` : ''))}
    ${fact(m.facts.gtin, `<span class="mono">${esc(model.gtin)}</span>`)}
    ${fact(m.facts.serial, `<span class="mono">${esc(model.serial)}</span>`)}
    ${fact(m.facts.batch, model.batch && esc(model.batch))}
    ${fact(m.facts.origin, model.originCountry && `<span id="origin" data-code="${esc(model.originCountry)}">${esc(countryName(text.language, model.originCountry))}</span>`)}
    ${fact(m.facts.category, model.category && esc(model.category))}
    ${fact(m.facts.conformity, model.conformityUrl && `<a id="conformity" href="${esc(model.conformityUrl)}" rel="noopener">${esc(m.facts.conformityLink)}</a>`)}
    ${fact(m.facts.scans, `<span id="verification-count">${esc(text.number(model.verificationCount))}</span>`)}
  </dl>
  ${materials}
  ${partOf(text, model)}
</section>`;
}

/** "Part of batch LOT-7 and model 0…": links to the passports the item shares data with. */
function partOf(text: PageText, model: VerifyPageModel): string {
  const f = text.m.facts;
  const levels = [...(model.partOf ?? [])].reverse();
  if (levels.length === 0) return '';
  const links = levels.map((level) => {
    const name =
      level.granularity === 'model'
        ? f.modelLabel.replace('{gtin}', level.code)
        : f.batchLabel.replace('{lot}', level.code);
    const kind = level.granularity === 'model' ? f.modelPassport : f.batchPassport;
    return `<a id="part-of-${level.granularity}" href="${esc(level.href)}">${esc(name)}</a> (${esc(kind)})`;
  });
  return `<p id="part-of">${text.html(f.partOf, { levels: links.join(` ${esc(f.and)} `) })}</p>`;
}

function scanSection(text: PageText): string {
  const n = text.m.nfc;
  return `<section id="scan-section" class="card scan" aria-labelledby="scan-title" hidden>
  <h2 id="scan-title">${esc(n.title)}</h2>
  <p>${esc(n.intro)}</p>
  <button id="scan" type="button" class="button">${esc(n.button)}</button>
  <p id="scan-status" class="scan__status" role="status"></p>
</section>`;
}

/** The words the page's script says, in the page's language (a data block: the CSP runs no inline script). */
function scriptTexts(text: PageText): string {
  const { nfc, owner } = text.m;
  const json = JSON.stringify({ nfc, owner, checkedAt: text.m.verdict.checkedAt }).replaceAll('<', '\\u003c');
  return `<script type="application/json" id="page-texts">${json}</script>`;
}

export interface PageAssets {
  /** The page's stylesheet itself: inlined, so the first paint waits for no second request (sendPage hashes it). */
  styles: string;
  js: string;
  icon: string;
}

/** A test passport's page says so at the top, so it cannot pass for a live one. */
export function testBanner(
  environment: string,
  words = 'Test environment: this passport does not describe a real product.',
): string {
  return environment === 'test' ? `<p class="test-banner" role="note">${esc(words)}</p>` : '';
}

/** A page's start up to its own `<link>`s: language, viewport, title, our icon and styles (with the brand's colours). */
export function pageHead(
  title: string,
  assets: Pick<PageAssets, 'styles' | 'icon'>,
  language = 'en',
  themeCss: string | null = null,
): string {
  return `<!doctype html>
<html lang="${esc(language)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${esc(title)}</title>
<link rel="icon" type="image/svg+xml" href="${esc(assets.icon)}">
<style>${assets.styles}${themeCss ?? ''}</style>`;
}

/** Everything one rendering of the page needs beyond the passport's model. */
export interface VerifyPageView {
  model: VerifyPageModel;
  brand: PageBrand;
  owner: OwnerFacts;
  /** This page's path and query (the tap verdict kept), for the language switch. */
  selfPath: string;
  /** The language was chosen with `?lang=`: the page's own links keep it. */
  explicitLanguage: boolean;
}

function masthead(text: PageText, brand: PageBrand, selfPath: string): string {
  const logo = brand.logoUrl
    ? `<img class="masthead__logo" id="brand-logo" src="${esc(brand.logoUrl)}" alt="${esc(text.m.brandLogo.replace('{brand}', brand.name))}" height="40">`
    : '';
  return `<header class="masthead">
  <div class="masthead__brand">${logo}<p class="masthead__title"><span id="brand-name">${esc(brand.name)}</span><span class="masthead__kind">${esc(text.m.masthead)}</span></p></div>
  ${languageSwitch(text, selfPath)}
</header>`;
}

/**
 * The verification page in one language: complete without JavaScript (the script only adds Web NFC scanning
 * and the claim where the browser reads NFC). The verdict comes first; the chain's proof is folded at the end.
 */
export function renderVerifyPage(view: VerifyPageView, assets: PageAssets): string {
  const { model, brand } = view;
  const text = pageText(model.language);
  const { m } = text;
  const keep = view.explicitLanguage ? model.language : undefined;
  const levels = (model.partOf ?? []).map((level) => ({ ...level, href: withLanguage(level.href, keep) }));
  const shown = { ...model, partOf: levels };
  // A revoked or recycled passport's tag proves nothing any more: no invitation to check it.
  const closed = model.status === 'REVOKED' || model.status === 'RECYCLED';
  return `${pageHead(m.pageTitle.replace('{product}', model.name), assets, model.language, brand.themeCss)}
<link rel="alternate" type="application/ld+json" href="${esc(model.links.vc)}" title="Verifiable credential">
<link rel="linkset" type="application/linkset+json" href="${esc(model.links.linkset)}">
<link rel="alternate" type="application/json" href="${esc(model.links.aas)}" title="Asset administration shell">
<script src="${esc(assets.js)}" defer></script>
</head>
<body>
<a class="skip-link" href="#product">${esc(m.skipLink)}</a>
${masthead(text, brand, view.selfPath)}
<main id="main" data-gtin="${esc(model.gtin)}" data-serial="${esc(model.serial)}" data-env="${esc(model.environment)}" data-lang="${esc(model.language)}"${view.explicitLanguage ? ' data-lang-explicit="true"' : ''}>
${testBanner(model.environment, m.testBanner)}
${verdictSection(text, model)}
${reopenNotice(text, model.verdict)}
${closed ? '' : `<p id="nfc-unavailable" class="hint">${esc(m.nfc.tapHint)}</p>`}
${statusNotice(text, model)}
${closed ? '' : scanSection(text)}
${productSection(text, shown)}
${ownerActions(text, model, brand, view.owner)}
${productGroupCards(text, model.productGroups ?? [])}
${historySection(text, model)}
${chainSection(text, model)}
<footer class="footer">
  <h2>${esc(m.machine.title)}</h2>
  <ul>
    <li><a href="${esc(model.links.vc)}">${esc(m.machine.credential)}</a></li>
    <li><a href="${esc(model.links.linkset)}">${esc(m.machine.linkset)}</a></li>
    <li><a href="${esc(model.links.aas)}">${esc(m.machine.aas)}</a></li>
  </ul>
</footer>
</main>
${scriptTexts(text)}
</body>
</html>
`;
}
