/** The languages the verification page speaks, English first (the fallback). docs/verification-page.md. */
export const PAGE_LANGUAGES = ['en', 'de', 'fr', 'it', 'es', 'nl', 'pl'] as const;
export type PageLanguage = (typeof PAGE_LANGUAGES)[number];

export function isPageLanguage(value: unknown): value is PageLanguage {
  return typeof value === 'string' && (PAGE_LANGUAGES as readonly string[]).includes(value);
}

/**
 * `Accept-Language` (RFC 9110 §12.5.4) as an ordered list of primary language subtags: highest q first, ties in
 * the order sent; q=0 and malformed entries dropped.
 */
export function acceptedLanguages(header: string | undefined): string[] {
  if (!header) return [];
  const ranges = header
    .split(',')
    .map((part, index) => {
      const [range = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/.exec(p)?.[1]).find(Boolean);
      return { tag: range.trim().toLowerCase(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((range) => range.q > 0 && /^([a-z]{1,8}(-[a-z0-9]{1,8})*|\*)$/.test(range.tag));
  ranges.sort((a, b) => b.q - a.q || a.index - b.index);
  return ranges.map((range) => range.tag.split('-')[0]!);
}

/** The page's language: an explicit choice (`?lang=`) first, else the browser's best we speak, else English. */
export function negotiateLanguage(
  explicit: string | undefined,
  acceptLanguage: string | undefined,
): PageLanguage {
  if (isPageLanguage(explicit)) return explicit;
  return acceptedLanguages(acceptLanguage).find(isPageLanguage) ?? 'en';
}

/** A language's name in that language itself (`Deutsch`), for the switch. */
export function autonym(language: PageLanguage): string {
  const name = new Intl.DisplayNames([language], { type: 'language' }).of(language) ?? language;
  return name.charAt(0).toLocaleUpperCase(language) + name.slice(1);
}
