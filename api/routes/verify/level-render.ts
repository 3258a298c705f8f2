import { contentSpecifications } from '../../../src/passport/content/content-specification.ts';
import type { PublicLevel } from '../../../src/passport/views/level-view.ts';
import { productGroupCards } from './product-group-render.ts';
import { esc, fact, type PageAssets, pageHead, testBanner } from './render.ts';

/** What a model's or batch's page shows: its public view and the addresses it links to. */
export interface LevelPageModel {
  view: PublicLevel;
  links: { linkset: string; dpp: string; publicJson: string; digitalLink: string };
  /** A batch's model passport: its page and Digital Link. */
  model: { page: string; name: string } | undefined;
}

const STATUS_LABELS: Record<string, string> = {
  active: 'Active',
  suspended: 'Suspended',
  archived: 'Archived',
};

/**
 * The page of a model or batch passport: plain HTML, no script, one column, the verification page's styles
 * (docs/public-passport.md "Model and batch addresses").
 */
export function renderLevelPage(page: LevelPageModel, assets: Pick<PageAssets, 'css' | 'icon'>): string {
  const { level, name, sections } = page.view;
  const isModel = level.granularity === 'model';
  const kind = isModel ? 'Model passport' : 'Batch passport';
  const scope = isModel
    ? 'shared by every item of this product'
    : `shared by every item of batch ${level.lot}`;
  const groups = productGroupCards(
    Object.entries(sections).map(([id, data]) => ({
      title: contentSpecifications.get(id)?.title ?? id,
      data,
    })),
  );
  const modelLink = page.model
    ? `<p id="part-of">Part of the <a id="model-link" href="${esc(page.model.page)}">model passport of ${esc(page.model.name)}</a>.</p>`
    : '';
  return `${pageHead(`${name} · ${kind}`, assets)}
<link rel="linkset" type="application/linkset+json" href="${esc(page.links.linkset)}">
</head>
<body>
<a class="skip-link" href="#product">Skip to the product facts</a>
<header class="masthead"><p class="masthead__title">Digital Product Passport</p></header>
<main id="main" data-granularity="${esc(level.granularity)}" data-gtin="${esc(level.gtin)}" data-env="${esc(level.environment)}">
${testBanner(level.environment)}
<section id="product" class="card" aria-labelledby="product-title">
  <h1 id="product-title">${esc(name)}</h1>
  <p id="granularity"><strong>${esc(kind)}</strong> — ${esc(scope)}.</p>
  ${modelLink}
  <dl class="facts">
    ${fact('Status', `<span id="status" class="badge badge--${esc(level.dppStatus)}">${esc(STATUS_LABELS[level.dppStatus] ?? level.dppStatus)}</span>`)}
    ${fact('GTIN', `<span class="mono">${esc(level.gtin)}</span>`)}
    ${fact('Batch', level.lot === null ? null : `<span class="mono">${esc(level.lot)}</span>`)}
    ${fact('Passport id', `<span class="mono">${esc(String(page.view.header.digitalProductPassportId))}</span>`)}
  </dl>
  <p class="meta">Each item of this product has its own passport at the serial number printed on it; it shows this ${isModel ? 'model' : 'batch'}’s data together with its own.</p>
</section>
${groups}
<footer class="footer">
  <h2>Machine-readable passport</h2>
  <ul>
    <li><a href="${esc(page.links.dpp)}">Passport document (EN 18222, JSON)</a></li>
    <li><a href="${esc(page.links.publicJson)}">Public view (JSON-LD)</a></li>
    <li><a href="${esc(page.links.linkset)}">GS1 linkset</a></li>
  </ul>
  <p class="meta">GS1 Digital Link <span class="mono">${esc(page.links.digitalLink)}</span></p>
</footer>
</main>
</body>
</html>
`;
}
