import type { VerifyPageModel } from '../../../src/passport/views/page-model.ts';
import type { PageBrand } from './page-brand.ts';
import { esc, type PageText } from './page-text.ts';

/** What the page knows beyond the passport for the owner's actions. */
export interface OwnerFacts {
  /** A paid resale waits for its buyer's claim (docs/resale.md, step 5). */
  claimOpen: boolean;
  /** The circular deposit locked at minting (`0.001 ETH`), none when nothing was locked. */
  deposit: string | null;
}

function link(href: string, label: string, id: string): string {
  return `<a id="${id}" href="${esc(href)}" rel="noopener">${esc(label)}</a>`;
}

function action(id: string, title: string, body: string): string {
  return `<section class="action" id="${id}" aria-labelledby="${id}-title">
    <h3 id="${id}-title">${esc(title)}</h3>
    ${body}
  </section>`;
}

function claimAction(text: PageText): string {
  const { m } = text;
  return action(
    'action-claim',
    m.owner.claimTitle,
    `<p>${esc(m.owner.claimText)}</p>
    <form id="claim-form" class="claim" hidden>
      <label for="claim-email">${esc(m.owner.email)}</label>
      <input id="claim-email" name="email" type="email" autocomplete="username" required>
      <label for="claim-password">${esc(m.owner.password)}</label>
      <input id="claim-password" name="password" type="password" autocomplete="current-password" required>
      <button id="claim" type="submit" class="button">${esc(m.owner.claimButton)}</button>
    </form>
    <p id="claim-status" class="scan__status" role="status"></p>
    <p id="claim-needs-nfc" class="meta">${esc(m.owner.claimNeedsNfc)}</p>`,
  );
}

function contactAction(text: PageText, brand: PageBrand): string {
  const links = [
    brand.contactEmail &&
      `<li><a id="contact-email" href="mailto:${esc(brand.contactEmail)}">${text.html(text.m.owner.contactEmail, { email: esc(brand.contactEmail) })}</a></li>`,
    brand.contactUrl && `<li>${link(brand.contactUrl, text.m.owner.contactWeb, 'contact-web')}</li>`,
  ].filter(Boolean);
  if (links.length === 0) return '';
  return action(
    'action-contact',
    text.m.owner.contactTitle.replace('{brand}', brand.name),
    `<ul class="links">${links.join('')}</ul>`,
  );
}

function recyclingAction(text: PageText, brand: PageBrand, owner: OwnerFacts): string {
  const { m } = text;
  const body = owner.deposit
    ? text.html(m.owner.recyclingText, { deposit: `<strong>${esc(owner.deposit)}</strong>` })
    : esc(m.owner.recyclingTextNoDeposit);
  const where = brand.recyclingUrl
    ? `<p>${link(brand.recyclingUrl, m.owner.recyclingWhere, 'recycling-where')}</p>`
    : '';
  return action('recycling', m.owner.recyclingTitle, `<p>${body}</p>${where}`);
}

function careAction(text: PageText, model: VerifyPageModel, brand: PageBrand): string {
  const { m } = text;
  const links = [
    brand.careUrl && `<li>${link(brand.careUrl, m.owner.careLink, 'care-link')}</li>`,
    brand.repairUrl && `<li>${link(brand.repairUrl, m.owner.repairLink, 'repair-link')}</li>`,
  ].filter(Boolean);
  if (!model.care && links.length === 0) return '';
  const care = model.care
    ? `<p id="care-text" lang="${esc(model.textsLanguage)}">${esc(model.care)}</p>`
    : '';
  return action(
    'action-care',
    m.owner.careTitle,
    `${care}${links.length ? `<ul class="links">${links.join('')}</ul>` : ''}`,
  );
}

function resaleAction(text: PageText, brand: PageBrand): string {
  if (!brand.resaleUrl) return '';
  const { m } = text;
  return action(
    'action-resale',
    m.owner.resaleTitle,
    `<p>${esc(m.owner.resaleText)}</p><p>${link(brand.resaleUrl, m.owner.resaleLink.replace('{brand}', brand.name), 'resale-link')}</p>`,
  );
}

/**
 * "What you can do", from the passport's state and the brand's settings: an active passport offers the claim
 * (while a paid resale waits for it), care and repair, resale, recycling and the brand's contact; a revoked,
 * recycled, suspended or archived one only what still makes sense (its notice says what the state means).
 */
export function ownerActions(
  text: PageText,
  model: VerifyPageModel,
  brand: PageBrand,
  owner: OwnerFacts,
): string {
  const parts =
    model.status === 'ACTIVE'
      ? [
          owner.claimOpen ? claimAction(text) : '',
          careAction(text, model, brand),
          resaleAction(text, brand),
          recyclingAction(text, brand, owner),
          contactAction(text, brand),
        ]
      : model.status === 'RECYCLED'
        ? [
            action(
              'recycling',
              text.m.owner.recyclingTitle,
              `<p>${
                owner.deposit
                  ? text.html(text.m.owner.recyclingDone, {
                      deposit: `<strong>${esc(owner.deposit)}</strong>`,
                    })
                  : esc(text.m.verdict.recycled.message)
              }</p>`,
            ),
            contactAction(text, brand),
          ]
        : model.status === 'REVOKED'
          ? [contactAction(text, brand)]
          : [careAction(text, model, brand), contactAction(text, brand)];
  const body = parts.filter((part) => part !== '').join('\n  ');
  if (body === '') return '';
  return `<section id="owner-actions" class="card" aria-labelledby="owner-actions-title" data-status="${esc(model.status)}">
  <h2 id="owner-actions-title">${esc(text.m.owner.title)}</h2>
  ${body}
</section>`;
}
