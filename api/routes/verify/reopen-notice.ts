import type { PageVerdict } from '../../../src/passport/views/page-model.ts';
import { esc, type PageText } from './page-text.ts';

/** A used link opened this many times (its first reading included) makes the page say so. */
export const REOPEN_NOTICE_MIN_OPENINGS = 3;

/** The notice under a "Replayed" verdict whose link was opened many times, in the page's language; else nothing. */
export function reopenNotice(text: PageText, verdict: PageVerdict): string {
  if (verdict.kind !== 'replayed' || !verdict.reopened) return '';
  const { openings, since } = verdict.reopened;
  if (openings < REOPEN_NOTICE_MIN_OPENINGS) return '';
  const { title, body, advice } = text.m.reopened;
  return `<section class="notice notice--revoked" id="reopen-notice" data-openings="${openings}" aria-labelledby="reopen-title">
  <p><strong id="reopen-title">${esc(title)}</strong> ${text.html(body, { count: text.number(openings), since: text.time(since, false) })}</p>
  <p>${esc(advice)}</p>
</section>`;
}
