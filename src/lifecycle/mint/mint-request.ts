import { z } from 'zod';
import type { MintProduct } from '../../processes/mint.ts';
import { isValidGtin14 } from '../../standards/gs1/gtin.ts';
import { fullDateField } from '../../standards/time/zod-rfc3339.ts';

/** The spec's 400 text (German, ESPR) for a mint without a declaration of conformity: its fixed first sentence. */
export const ESPR_CONFORMITY_PREFIX =
  'ESPR Compliance Fehler: Die Konformitätserklärung (declarationOfConformity) ist verpflichtend.';

/** The ESPR text with the hint where this request brings the link (`field`, e.g. customDppData.conformity_url). */
export function esprConformityMessage(field: string): string {
  return `${ESPR_CONFORMITY_PREFIX} Bitte geben Sie ${field} an.`;
}

/** Shape A's 400 text (the mint 400 of the spec). */
export const ESPR_CONFORMITY_MESSAGE = esprConformityMessage('custom_dpp_data.conformity_url');

/**
 * Where a mint without its own link is sent: the company default (PATCH /v1/company/settings). Bind shape B
 * (toolbox) carries no passport data: its sources are the twin's conformity_url (provisioning) and the default.
 */
export const CONFORMITY_DEFAULT_HINT =
  'defaultConformityUrl (PATCH /v1/company/settings) als Standard-Konformitätserklärung des Unternehmens';

export const gtinSchema = z
  .string()
  .trim()
  .refine(isValidGtin14, 'gtin must be 14 digits with a valid GS1 check digit');

export const httpUrl = z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }).max(2048);
const imageUrl = z.url({ protocol: /^(https?|ipfs)$/, message: 'must be an http(s) or ipfs URL' }).max(2048);
const countryCode = z.string().regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code such as DE');
const scalar = z.union([z.string().max(1000), z.number(), z.boolean(), z.null()]);

/** custom_dpp_data: the spec's members, typed; further scalar members are kept as given (at most 50). */
export const customDppDataSchema = z
  .object({
    gtin: gtinSchema.optional(),
    hsCode: z
      .string()
      .regex(/^\d{4,10}$/, 'hsCode must be 4 to 10 digits')
      .optional(),
    category: z.string().max(100).optional(),
    svhc_exists: z.boolean().optional(),
    batch_number: z.string().max(100).optional(),
    originCountry: countryCode.optional(),
    conformity_url: httpUrl,
    manufacturer_gln: z
      .string()
      .regex(/^\d{13}$/, 'manufacturer_gln must be 13 digits')
      .optional(),
    manufacturer_name: z.string().max(200).optional(),
    manufacturingDate: fullDateField().optional(),
    manufacturer_address: z.string().max(500).optional(),
    material_composition: z
      .record(z.string().min(1).max(100), z.number().min(0).max(100))
      .refine((m) => Object.keys(m).length <= 50, 'at most 50 materials')
      .refine(
        (m) => Object.values(m).reduce((a, b) => a + b, 0) <= 100.5,
        'percentages add up to more than 100',
      )
      .optional(),
    // Scorecards of the passport credential (format=vc); leave out what is not known.
    carbon_footprint: z
      .number()
      .min(0)
      .max(1_000_000)
      .optional()
      .describe('Product carbon footprint in kg CO2e per unit (emissionsScorecard, unit KGM).'),
    recycled_content: z
      .number()
      .min(0)
      .max(100)
      .optional()
      .describe('Recycled content in percent of the product’s mass (circularityScorecard, unit P1).'),
    repairability_score: z
      .number()
      .min(0)
      .max(10)
      .optional()
      .describe('Repairability score from 0 to 10, as EU repairability indexes give it (unit SCORE).'),
    expected_lifespan_years: z
      .number()
      .positive()
      .max(200)
      .optional()
      .describe('Expected life span in years (circularityScorecard, unit ANN).'),
  })
  .catchall(scalar)
  .refine((o) => Object.keys(o).length <= 60, 'custom_dpp_data has too many members');

export const mintShapeA = z
  .object({
    name: z.string().trim().min(1).max(200),
    description: z.string().max(5000).default(''),
    image: imageUrl.optional(),
    chipUid: z.string().trim().min(1).max(40),
    nfcData: z
      .string()
      .trim()
      .min(1)
      .max(2048)
      .describe('The tapped SUN URL, or its query (picc_data, enc, cmac).'),
    material: z.string().trim().max(200).optional(),
    productId: z.string().trim().max(200).optional(),
    custom_dpp_data: customDppDataSchema,
  })
  .strict();

export const mintShapeB = z
  .object({
    gtin: gtinSchema,
    chipUid: z.string().trim().min(1).max(40),
    material: z.string().trim().min(1).max(200),
    name: z.string().trim().min(1).max(200).optional(),
    customDppData: z
      .object({
        hsCode: z
          .string()
          .regex(/^\d{4,10}$/, 'hsCode must be 4 to 10 digits')
          .optional(),
        category: z.string().max(100).optional(),
        originCountry: countryCode.optional(),
        conformity_url: httpUrl
          .optional()
          .describe(
            'Declaration of conformity. Without it the company default (defaultConformityUrl, PATCH ' +
              '/v1/company/settings) is recorded; with neither the mint is refused (400 conformity_required).',
          ),
      })
      .strict()
      .default({}),
  })
  .strict();

export type MintShapeA = z.infer<typeof mintShapeA>;
export type MintShapeB = z.infer<typeof mintShapeB>;

/** Shape A is the one carrying a tap (`nfcData`) or `custom_dpp_data`; anything else is read as shape B. */
export function isShapeA(body: unknown): boolean {
  return typeof body === 'object' && body !== null && ('nfcData' in body || 'custom_dpp_data' in body);
}

/** True when a shape-A body lacks the declaration of conformity (checked before anything else). */
export function lacksConformity(body: unknown): boolean {
  const custom = (body as { custom_dpp_data?: unknown }).custom_dpp_data;
  if (typeof custom !== 'object' || custom === null) return true;
  const url = (custom as { conformity_url?: unknown }).conformity_url;
  return typeof url !== 'string' || url.trim() === '';
}

export function productFromShapeA(body: MintShapeA): MintProduct {
  return {
    name: body.name,
    description: body.description,
    image: body.image ?? null,
    gtin: body.custom_dpp_data.gtin ?? null,
    material: body.material ?? null,
    productId: body.productId ?? null,
    customDppData: body.custom_dpp_data,
  };
}

/** The declaration of conformity a shape-B request brings itself, if any. */
export function shapeBConformityUrl(body: MintShapeB): string | undefined {
  return body.customDppData.conformity_url;
}

/**
 * Shape B's product. `conformityUrl` is the request's own link or else the company default; the caller refuses
 * the mint (400 ESPR) when there is neither, so no passport goes on chain without one.
 */
export function productFromShapeB(body: MintShapeB, conformityUrl: string): MintProduct {
  return {
    name: body.name ?? body.material,
    description: '',
    image: null,
    gtin: body.gtin,
    material: body.material,
    productId: null,
    customDppData: { ...body.customDppData, conformity_url: conformityUrl, gtin: body.gtin },
  };
}

/** True when a product about to be minted has a declaration of conformity (every path checks it). */
export function hasConformity(product: MintProduct): boolean {
  const url = product.customDppData.conformity_url;
  return typeof url === 'string' && /^https?:\/\/\S/.test(url.trim());
}
