import type { PageLanguage } from './i18n/languages.ts';
import { PAGE_MESSAGES } from './i18n/messages.ts';
import type { TapVerdict } from './tap-verdict.ts';

/** What the verification page says about a tap, in its language (the page and POST /verify/tap use the same words). */
export function verdictText(language: PageLanguage): Record<TapVerdict, { title: string; message: string }> {
  const { authentic, replayed, forged, unverifiable } = PAGE_MESSAGES[language].verdict;
  return { authentic, replayed, forged, unverifiable };
}

/** The words in English. */
export const VERDICT_TEXT = verdictText('en');
