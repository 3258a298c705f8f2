import { z } from 'zod';
import {
  isPageLanguage,
  negotiateLanguage,
  PAGE_LANGUAGES,
  type PageLanguage,
} from '../../../src/passport/views/i18n/languages.ts';
import type { AppContext } from '../../context.ts';

/** The pages' `?lang=` (docs/verification-page.md "Languages"). */
export const langQuery = z
  .string()
  .max(35)
  .optional()
  .describe(
    `The page's language, one of ${PAGE_LANGUAGES.join(', ')}; else the best of Accept-Language, else English (docs/verification-page.md).`,
  );

/**
 * A page's language: `?lang=` when it names one we speak (an explicit choice the page's links keep), else the
 * best of Accept-Language, else English. Caches keep one copy per language (`Vary`).
 */
export function pageLanguage(
  ctx: AppContext,
  lang: string | undefined,
): { language: PageLanguage; explicit: boolean } {
  ctx.set('Vary', 'Accept-Language, x-service-env');
  const explicit = isPageLanguage(lang) ? lang : undefined;
  return {
    language: negotiateLanguage(explicit, ctx.get('accept-language') || undefined),
    explicit: explicit !== undefined,
  };
}
