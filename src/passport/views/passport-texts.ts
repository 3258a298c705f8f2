import type { PageLanguage } from './i18n/languages.ts';

/** The passport's own texts as the page shows them in one language. */
export interface PassportTexts {
  name: string | null;
  description: string | null;
  care: string | null;
  /** The language they are in: the page's, or the brand's default when the brand gave none in the page's. */
  language: string;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

/**
 * The passport's texts in the page's language: `name`, `description` and `care_instructions` are in the brand's
 * default language; `name_de`, `description_de`, `care_instructions_de` (custom_dpp_data, one per language) are
 * the brand's translations. A language the brand gave nothing in gets the default texts (the page says so).
 */
export function passportTexts(
  metadata: { name?: unknown; description?: unknown; custom_dpp_data?: Record<string, unknown> },
  language: PageLanguage,
  brandLanguage: string,
): PassportTexts {
  const custom = metadata.custom_dpp_data ?? {};
  const own = {
    name: text(metadata.name),
    description: text(metadata.description),
    care: text(custom.care_instructions),
  };
  if (language === brandLanguage) return { ...own, language };
  const translated = {
    name: text(custom[`name_${language}`]),
    description: text(custom[`description_${language}`]),
    care: text(custom[`care_instructions_${language}`]),
  };
  const given = Object.values(translated).some((value) => value !== null);
  if (!given) return { ...own, language: brandLanguage };
  return {
    name: translated.name ?? own.name,
    description: translated.description ?? own.description,
    care: translated.care ?? own.care,
    language,
  };
}
