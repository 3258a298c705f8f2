import {
  passportHeaderVocabulary,
  untpExtensionContext,
  untpVariantsContextUrl,
} from '../../standards/credentials/contexts.ts';
import { contentSpecifications } from '../content/content-specification.ts';
import { levelDigitalLink } from '../levels/levels.ts';
import { dppIdOf } from '../record/passport-header.ts';
import type { LevelFacts } from './level-credentials.ts';
import {
  COUNTRY,
  compact,
  HS_SCHEME,
  text,
  UntpUnavailable,
  untpFacility,
  untpParties,
} from './untp-credential.ts';

type Data = Record<string, unknown>;

/** The header members the UNTP extension context defines (the others would be undefined terms). */
function headerTerms(publicBaseUrl: string): string[] {
  const terms = untpExtensionContext(publicBaseUrl)['@context'] as Record<string, unknown>;
  return Object.keys(terms).filter((term) => /^[a-z]/.test(term) && term !== 'passportHeader');
}

/** The first value under one of `fields`, searched breadth first through the level's public sections. */
function firstValue(sections: Record<string, Data>, fields: readonly string[]): string | undefined {
  let layer: Data[] = Object.values(sections);
  for (let depth = 0; depth < 4 && layer.length > 0; depth++) {
    for (const object of layer) {
      for (const field of fields) {
        const found = text(object[field]);
        if (found) return found;
      }
    }
    layer = layer.flatMap((object) =>
      Object.values(object).filter(
        (value): value is Data => typeof value === 'object' && value !== null && !Array.isArray(value),
      ),
    );
  }
  return undefined;
}

/** The product's class: its HS code when its data states one, else its product group (content specification). */
function productCategory(sections: Record<string, Data>, publicBaseUrl: string) {
  const hsCode = firstValue(sections, ['hsCode', 'hs_code']);
  if (hsCode) return [{ code: hsCode, name: `HS ${hsCode}`, ...HS_SCHEME }];
  return Object.keys(sections).flatMap((id) => {
    const spec = contentSpecifications.get(id);
    return spec
      ? [
          {
            code: spec.group,
            name: spec.title,
            schemeId: `${publicBaseUrl}/v1/content-specifications`,
            schemeName: 'Product groups of the Digital Product Passport service (content specifications)',
          },
        ]
      : [];
  });
}

/**
 * A model's or batch's UNTP Product (`idGranularity` model or batch; UNTP 0.7.0 Product), from what the level
 * states publicly: class (an HS code in its data, else its product group), facility (its data's
 * `manufacturingFacilityId`, else the company's `facilityId`), country of production (its data's
 * `countryOfProduction`/`originCountry`, an ISO 3166-1 alpha-2 code). UNTP requires the three; a level lacking
 * one throws UntpUnavailable (nothing is invented). Its public product-group data rides along as the public
 * UNTP variant's does (`productGroupData`); a batch links its model passport (`relatedDocument`).
 */
export function levelUntpProduct(facts: LevelFacts, publicBaseUrl: string) {
  const { view, model } = facts;
  const { level, header, sections } = view;
  const category = productCategory(sections, publicBaseUrl);
  const facilityId = firstValue(sections, ['manufacturingFacilityId']) ?? text(header.facilityId);
  const country = firstValue(sections, ['countryOfProduction', 'originCountry', 'countryOfOrigin']);
  const missing = [
    ...(category.length === 0 ? ['productCategory (an hsCode or a product group in its data)'] : []),
    ...(facilityId
      ? []
      : ['producedAtFacility (its data’s manufacturingFacilityId or the company’s facilityId)']),
    ...(country && COUNTRY.test(country)
      ? []
      : ['countryOfProduction (its data’s countryOfProduction, an ISO 3166-1 alpha-2 code)']),
  ];
  if (missing.length > 0) throw new UntpUnavailable(missing);
  const link = levelDigitalLink(publicBaseUrl, level);
  const manufacturer = firstValue(sections, ['manufacturerName']) ?? facts.companyName;
  const passportHeader = compact(
    Object.fromEntries(headerTerms(publicBaseUrl).map((term) => [term, header[term]])) as Record<
      string,
      unknown
    >,
  );
  const product = compact({
    type: ['Product'],
    id: link,
    name: view.name,
    idScheme: {
      type: ['IdentifierScheme'],
      id: 'https://id.gs1.org/01',
      name:
        level.lot === null
          ? 'GS1 Digital Link: GTIN (AI 01)'
          : 'GS1 Digital Link: GTIN (AI 01) with batch/lot (AI 10)',
    },
    modelNumber: level.gtin,
    batchNumber: level.lot ?? undefined,
    idGranularity: level.granularity,
    productCategory: category,
    producedAtFacility: untpFacility(facilityId!, undefined, manufacturer),
    countryOfProduction: { countryCode: country!.toUpperCase() },
    relatedParty: untpParties(
      { economicOperatorId: text(header.economicOperatorId) ?? null },
      facts.companyName,
    ),
    relatedDocument: [
      {
        linkURL: `${link}?format=vc`,
        linkName: `Digital Product Passport (${level.granularity} passport, W3C verifiable credential)`,
        linkType: 'https://gs1.org/voc/dpp',
      },
      ...(model
        ? [
            {
              linkURL: levelDigitalLink(publicBaseUrl, model),
              linkName: `Model passport (${dppIdOf(model.serviceUid)})`,
              linkType: `${passportHeaderVocabulary(publicBaseUrl)}modelPassport`,
            },
          ]
        : []),
    ],
    characteristics: { passportHeader: { id: header.digitalProductPassportId, ...passportHeader } },
    productGroupData: Object.keys(sections).length > 0 ? sections : undefined,
  });
  return {
    product,
    contexts: product.productGroupData ? [untpVariantsContextUrl(publicBaseUrl)] : [],
  };
}
