import { fill } from '../../../src/passport/views/i18n/messages.ts';
import type { PublicLevel } from '../../../src/passport/views/level-view.ts';
import { esc, languageSwitch, type PageText, withLanguage } from './page-text.ts';
import { productGroupCards } from './product-group-render.ts';
import { fact, type PageAssets, pageHead, testBanner } from './render.ts';

/** What a model's or batch's page shows: its public view and the addresses it links to. */
export interface LevelPageModel {
  view: PublicLevel;
  links: { linkset: string; dpp: string; publicJson: string; digitalLink: string };
  /** A batch's model passport: its page and public view. */
  model: { page: string; view: PublicLevel } | undefined;
  /** This page's path, for the language switch. */
  selfPath: string;
  /** The language was chosen with `?lang=`: the link to the model's page keeps it. */
  explicitLanguage: boolean;
}

/** The level's product name; without one in its data, one made of its GTIN (and maker), in the page's language. */
function levelName(text: PageText, view: PublicLevel): string {
  const words = text.m.level;
  const { gtin, lot } = view.level;
  if (!view.naming) return view.name;
  const { product: named, manufacturer } = view.naming;
  const product =
    named ?? fill(manufacturer ? words.productBy : words.product, { gtin, manufacturer: manufacturer ?? '' });
  return lot === null ? product : fill(words.withBatch, { product, lot });
}

/**
 * The page of a model or batch passport in the page's language: plain HTML, no script, one column, the
 * verification page's styles (docs/public-passport.md "Model and batch addresses").
 */
export function renderLevelPage(
  page: LevelPageModel,
  text: PageText,
  assets: Pick<PageAssets, 'styles' | 'icon'>,
): string {
  const { m } = text;
  const words = m.level;
  const { level, sections } = page.view;
  const name = levelName(text, page.view);
  const isModel = level.granularity === 'model';
  const kind = isModel ? words.model : words.batch;
  const scope = isModel ? esc(words.modelScope) : text.html(words.batchScope, { lot: esc(level.lot ?? '') });
  const groups = productGroupCards(
    text,
    Object.entries(sections).map(([id, data]) => ({ specification: id, title: id, data })),
  );
  const keep = page.explicitLanguage ? text.language : undefined;
  const modelLink = page.model
    ? `<p id="part-of">${text.html(words.partOfModel, {
        link: `<a id="model-link" href="${esc(withLanguage(page.model.page, keep))}">${text.html(words.modelOf, { name: esc(levelName(text, page.model.view)) })}</a>`,
      })}</p>`
    : '';
  const status = (m.status as Record<string, string>)[level.dppStatus.toUpperCase()] ?? level.dppStatus;
  return `${pageHead(`${name} · ${kind}`, assets, text.language)}
<link rel="linkset" type="application/linkset+json" href="${esc(page.links.linkset)}">
</head>
<body>
<a class="skip-link" href="#product">${esc(m.skipLink)}</a>
<header class="masthead"><p class="masthead__title">${esc(m.masthead)}</p>
  ${languageSwitch(text, page.selfPath)}
</header>
<main id="main" data-granularity="${esc(level.granularity)}" data-gtin="${esc(level.gtin)}" data-env="${esc(level.environment)}" data-lang="${esc(text.language)}">
${testBanner(level.environment, m.testBanner)}
<section id="product" class="card" aria-labelledby="product-title">
  <h1 id="product-title">${esc(name)}</h1>
  <p id="granularity"><strong>${esc(kind)}</strong> — ${scope}.</p>
  ${modelLink}
  <dl class="facts">
    ${fact(m.status.label, `<span id="status" class="badge badge--${esc(level.dppStatus)}">${esc(status)}</span>`)}
    ${fact(m.facts.gtin, `<span class="mono">${esc(level.gtin)}</span>`)}
    ${fact(m.facts.batch, level.lot === null ? null : `<span class="mono">${esc(level.lot)}</span>`)}
    ${fact(words.passportId, `<span class="mono">${esc(String(page.view.header.digitalProductPassportId))}</span>`)}
  </dl>
  <p class="meta">${esc(isModel ? words.modelItems : words.batchItems)}</p>
</section>
${groups}
<footer class="footer">
  <h2>${esc(m.machine.title)}</h2>
  <ul>
    <li><a href="${esc(page.links.dpp)}">${esc(words.document)}</a></li>
    <li><a href="${esc(page.links.publicJson)}">${esc(words.publicView)}</a></li>
    <li><a href="${esc(page.links.linkset)}">${esc(m.machine.linkset)}</a></li>
  </ul>
  <p class="meta">${esc(words.digitalLink)} <span class="mono">${esc(page.links.digitalLink)}</span></p>
</footer>
</main>
</body>
</html>
`;
}
