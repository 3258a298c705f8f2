import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import {
  acceptedLanguages,
  negotiateLanguage,
  PAGE_LANGUAGES,
} from '../../src/passport/views/i18n/languages.ts';
import {
  countryName,
  fieldLabel,
  groupTitle,
  localAddress,
  materialName,
  PAGE_MESSAGES,
} from '../../src/passport/views/i18n/messages.ts';
import { passportTexts } from '../../src/passport/views/passport-texts.ts';

/** Every message of a file as `path → text`. */
function flat(messages: object, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(messages)) {
    if (typeof value === 'string') out.set(`${prefix}${key}`, value);
    else for (const [k, v] of flat(value as object, `${prefix}${key}.`)) out.set(k, v);
  }
  return out;
}

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('the verification page’s message files', () => {
  const reference = flat(PAGE_MESSAGES.en);
  for (const language of PAGE_LANGUAGES) {
    test(`${language} has every key of en, no other, each with the same placeholders and not empty`, () => {
      const messages = flat(PAGE_MESSAGES[language]);
      assert.deepEqual([...messages.keys()].sort(), [...reference.keys()].sort());
      for (const [key, text] of messages) {
        assert.ok(text.trim() !== '', `${language}: ${key} is empty`);
        assert.deepEqual(placeholders(text), placeholders(reference.get(key)!), `${language}: ${key}`);
      }
    });
  }

  test('Accept-Language picks the best language the page speaks; ?lang= wins; else English', () => {
    assert.deepEqual(acceptedLanguages('de-DE,de;q=0.9,en;q=0.5'), ['de', 'de', 'en']);
    assert.equal(negotiateLanguage(undefined, 'de-DE,de;q=0.9,en;q=0.5'), 'de');
    assert.equal(negotiateLanguage(undefined, 'ja, fr-CH;q=0.8, en;q=0.1'), 'fr');
    assert.equal(negotiateLanguage(undefined, 'en;q=0.2, pl;q=0.7'), 'pl');
    assert.equal(negotiateLanguage(undefined, 'de;q=0, it'), 'it');
    assert.equal(negotiateLanguage(undefined, 'ja'), 'en');
    assert.equal(negotiateLanguage(undefined, undefined), 'en');
    assert.equal(negotiateLanguage('nl', 'de'), 'nl');
    assert.equal(negotiateLanguage('xx', 'es'), 'es', 'an unknown ?lang= is ignored');
  });

  test('countries and materials by name in the language; an unknown material readable', () => {
    assert.equal(countryName('de', 'PT'), 'Portugal');
    assert.equal(countryName('fr', 'DE'), 'Allemagne');
    assert.equal(countryName('it', 'Italy'), 'Italy', 'not a code: as given');
    assert.equal(materialName('de', 'Cotton'), 'Baumwolle');
    assert.equal(materialName('fr', 'elastane'), 'Élasthanne');
    assert.equal(materialName('pl', 'Merino wool'), 'Wełna merino');
    assert.equal(materialName('de', 'bio_nylon'), 'Bio nylon');
  });

  test('product-group fields and titles by name in the language; an unknown field readable, never camelCase', () => {
    assert.equal(fieldLabel('en', 'batteryMassKg'), 'Battery mass (kg)');
    assert.equal(fieldLabel('de', 'generalProductInformation'), 'Allgemeine Produktinformationen');
    assert.equal(fieldLabel('fr', 'warrantyPeriod'), 'Durée de garantie');
    assert.equal(fieldLabel('de', 'stateOfHealthPercent'), 'State of health percent');
    assert.equal(fieldLabel('it', 'spare_part_count'), 'Spare part count');
    assert.equal(groupTitle('de', 'battery', 'EU battery passport (Regulation …)'), 'EU-Batteriepass');
    assert.equal(groupTitle('pl', 'textile', 'Textiles'), 'Textiles', 'a group without words: its own title');
  });

  test('an address’s trailing country code by name in the language', () => {
    assert.equal(
      localAddress('de', 'Hafenstraße 1, 20457 Hamburg, DE'),
      'Hafenstraße 1, 20457 Hamburg, Deutschland',
    );
    assert.equal(localAddress('fr', 'Hamburg, DE'), 'Hamburg, Allemagne');
    assert.equal(localAddress('en', 'Rua Nova 3\nPorto, PT'), 'Rua Nova 3\nPorto, Portugal');
    assert.equal(localAddress('de', 'Hamburg, Germany'), 'Hamburg, Germany', 'a name: as given');
    assert.equal(localAddress('de', 'DE'), 'DE', 'no address, a code alone: as given');
  });

  test('the passport’s own texts: the brand’s translation, else its default language (said so)', () => {
    const metadata = {
      name: 'Trail Jacket',
      description: 'Waterproof shell',
      custom_dpp_data: { name_de: 'Trailjacke', description_de: 'Wasserdichte Hülle' },
    };
    assert.deepEqual(passportTexts(metadata, 'de', 'en'), {
      name: 'Trailjacke',
      description: 'Wasserdichte Hülle',
      care: null,
      language: 'de',
    });
    assert.equal(passportTexts(metadata, 'fr', 'en').language, 'en');
    assert.equal(passportTexts(metadata, 'fr', 'en').description, 'Waterproof shell');
    assert.equal(passportTexts(metadata, 'en', 'en').name, 'Trail Jacket');
  });
});
