import { autonym, PAGE_LANGUAGES, type PageLanguage } from '../../../src/passport/views/i18n/languages.ts';
import { fill, type Messages, PAGE_MESSAGES } from '../../../src/passport/views/i18n/messages.ts';

/** Escapes text for HTML content and double-quoted attributes. */
export function esc(value: string | number): string {
  return String(value)
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** The page's words and formats in one language: messages, dates and numbers in its locale. */
export interface PageText {
  language: PageLanguage;
  m: Messages;
  /** A message as HTML: the template escaped, `{values}` inserted as given (already HTML). */
  html(template: string, values?: Readonly<Record<string, string>>): string;
  /** A date (`withTime`: and time, UTC) as a `<time>` element. */
  time(date: Date, withTime?: boolean): string;
  /** `80` → `80 %` / `80%` as the locale writes a percentage. */
  percent(value: number): string;
  number(value: number, digits?: number): string;
}

const cache = new Map<PageLanguage, PageText>();

export function pageText(language: PageLanguage): PageText {
  const known = cache.get(language);
  if (known) return known;
  const dateTime = new Intl.DateTimeFormat(language, {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: 'UTC',
  });
  const dateOnly = new Intl.DateTimeFormat(language, { dateStyle: 'long', timeZone: 'UTC' });
  const percent = new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 2 });
  const text: PageText = {
    language,
    m: PAGE_MESSAGES[language],
    html: (template, values = {}) => fill(esc(template), values),
    time: (date, withTime = true) => {
      const shown = withTime ? `${dateTime.format(date)} UTC` : dateOnly.format(date);
      return `<time datetime="${esc(date.toISOString())}">${esc(shown)}</time>`;
    },
    percent: (value) => percent.format(value / 100),
    number: (value, digits = 0) =>
      new Intl.NumberFormat(language, {
        minimumFractionDigits: digits,
        maximumFractionDigits: digits,
      }).format(value),
  };
  cache.set(language, text);
  return text;
}

/** `?lang=de` on a page link: the explicit choice the page's own links keep. */
export function withLanguage(href: string, language: PageLanguage | undefined): string {
  if (!language) return href;
  const url = new URL(href, 'http://page.invalid');
  url.searchParams.set('lang', language);
  return href.startsWith('/') ? `${url.pathname}${url.search}` : url.toString();
}

/** The language switch: every language by its own name, each a link to this page in it (works without script). */
export function languageSwitch(text: PageText, selfPath: string): string {
  const options = PAGE_LANGUAGES.map((language) => {
    const current = language === text.language ? ' aria-current="true"' : '';
    return `<li><a href="${esc(withLanguage(selfPath, language))}" lang="${language}" hreflang="${language}"${current}>${esc(autonym(language))}</a></li>`;
  }).join('');
  return `<details class="lang-switch" id="lang-switch">
  <summary><span class="lang-switch__label">${esc(text.m.languageLabel)}:</span> ${esc(autonym(text.language))}</summary>
  <ul>${options}</ul>
</details>`;
}
