import type { PageVerdict } from '../../../src/passport/views/page-model.ts';

/** A used link opened this many times (its first reading included) makes the page say so. */
export const REOPEN_NOTICE_MIN_OPENINGS = 3;

/** The notice's words (English; one object, so they can join the page's message files). */
export const REOPEN_NOTICE_TEXT = {
  title: 'This tag’s link has been opened before.',
  /** {count} and {since} are filled in. */
  body: 'This link was opened {count} times since {since}: the product in your hand may not carry the original tag.',
  advice:
    'A genuine tag writes a new link on every tap. Tap the tag itself again with your phone (not a saved link, ' +
    'a photo or a printed code). If a fresh tap also shows this, or the product has only a printed code, do not ' +
    'rely on it: ask the seller, or report it to the brand.',
};

function esc(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
}

/** The notice under a "Replayed" verdict whose link was opened many times, else nothing. */
export function reopenNotice(verdict: PageVerdict): string {
  if (verdict.kind !== 'replayed' || !verdict.reopened) return '';
  const { openings, since } = verdict.reopened;
  if (openings < REOPEN_NOTICE_MIN_OPENINGS) return '';
  const when = `<time datetime="${since.toISOString()}">${esc(since.toISOString().slice(0, 10))}</time>`;
  const body = esc(REOPEN_NOTICE_TEXT.body).replace('{count}', String(openings)).replace('{since}', when);
  return `<section class="notice notice--revoked" id="reopen-notice" data-openings="${openings}" aria-labelledby="reopen-title">
  <p><strong id="reopen-title">${esc(REOPEN_NOTICE_TEXT.title)}</strong> ${body}</p>
  <p>${esc(REOPEN_NOTICE_TEXT.advice)}</p>
</section>`;
}
