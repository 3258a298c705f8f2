import type { PageLanguage } from './languages.ts';
import { de } from './messages/de.ts';
import { en, type Messages } from './messages/en.ts';
import { es } from './messages/es.ts';
import { fr } from './messages/fr.ts';
import { it } from './messages/it.ts';
import { nl } from './messages/nl.ts';
import { pl } from './messages/pl.ts';

export type { Messages };

/** Every language's message file (one per language; en.ts is the reference). */
export const PAGE_MESSAGES: Readonly<Record<PageLanguage, Messages>> = { en, de, fr, it, es, nl, pl };

/** A message with its `{placeholders}` replaced; values are used as given (the caller escapes for HTML). */
export function fill(template: string, values: Readonly<Record<string, string | number>> = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  );
}

/** `Merino Wool`, `merino-wool` → `merino_wool`: how the vocabulary names a material. */
export function materialKey(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
}

/** A material's name in the language; a key the vocabulary lacks is shown readably (`bio_nylon` → `Bio nylon`). */
export function materialName(language: PageLanguage, name: string): string {
  const known = (PAGE_MESSAGES[language].materials as Record<string, string>)[materialKey(name)];
  return known ?? readableName(language, name);
}

/** An ISO 3166 country code's name in the language (`PT` → `Portugal`); anything else as given. */
export function countryName(language: PageLanguage, code: string): string {
  if (!/^[A-Za-z]{2}$/.test(code)) return code;
  try {
    return (
      new Intl.DisplayNames([language], { type: 'region', fallback: 'code' }).of(code.toUpperCase()) ?? code
    );
  } catch {
    return code;
  }
}

/** A language's name in the page's language (`de` in French: `allemand`). */
export function languageName(language: PageLanguage, code: string): string {
  try {
    return new Intl.DisplayNames([language], { type: 'language', fallback: 'code' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** `stateOfHealthPercent`, `state_of_health` → `State of health percent`: a name we have no word for, readable. */
export function readableName(language: PageLanguage, name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLocaleLowerCase(language);
  return words.charAt(0).toLocaleUpperCase(language) + words.slice(1);
}

/** A product-group field's name in the language (the vocabulary of `productData.fields`), else readable. */
export function fieldLabel(language: PageLanguage, name: string): string {
  const known = (PAGE_MESSAGES[language].productData.fields as Record<string, string>)[name];
  return known ?? readableName(language, name);
}

/** A product group's card title (`battery` → "EU battery passport"), else the specification's own, else readable. */
export function groupTitle(language: PageLanguage, group: string | undefined, fallback: string): string {
  const known =
    group === undefined
      ? undefined
      : (PAGE_MESSAGES[language].productData.titles as Record<string, string>)[group];
  return known ?? fallback;
}

/** `Hafenstraße 1, Hamburg, DE` → `…, Hamburg, Deutschland`: an address's trailing country code by name. */
export function localAddress(language: PageLanguage, address: string): string {
  const match = /^([\s\S]*[,\n]\s*)([A-Z]{2})\s*$/.exec(address);
  if (!match) return address;
  return `${match[1]}${countryName(language, match[2]!)}`;
}
