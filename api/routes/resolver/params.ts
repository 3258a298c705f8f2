import { z } from 'zod';
import { ACCESS_ROLES } from '../../../src/passport/credentials/untp-variants.ts';
import { PASSPORT_FORMATS } from '../../../src/passport/views/passport-request.ts';
import { normalizeGtin } from '../../../src/standards/gs1/gtin.ts';
import { isAi82Value } from '../../../src/standards/gs1/qualifiers.ts';

export const gtinParam = z
  .string()
  .refine((value) => normalizeGtin(value) !== undefined, {
    message: 'GTIN must be 8, 12, 13 or 14 digits with a valid GS1 check digit',
  })
  .meta({
    description: 'GTIN (AI 01): GTIN-8, -12, -13 or -14; normalised to 14 digits, check digit verified.',
    examples: ['09506000134352'],
  });

/** The 14-digit form of a GTIN the parameter schema accepted. */
export function gtin14(value: string): string {
  return normalizeGtin(value)!;
}

export function ai82Param(name: string) {
  return z
    .string()
    .refine(
      isAi82Value,
      `${name} must be 1 to 20 characters of GS1 character set 82 (percent-encoded in the URL)`,
    );
}

export const serialParam = ai82Param('serial (AI 21)').describe(
  'Serial number (AI 21): the passport’s token id.',
);
export const batchParam = ai82Param('batch/lot (AI 10)').describe(
  'Batch/lot (AI 10). Beside a serial it does not select: the serial names the item under its GTIN.',
);

export const resolverQuery = z.object({
  format: z
    .enum(PASSPORT_FORMATS)
    .optional()
    .describe('Representation; wins over Accept. erp needs an API key of the passport’s company.'),
  linkType: z
    .string()
    .max(200)
    .optional()
    .describe(
      'GS1 link type (gs1:pip, gs1:dpp, …, full IRI accepted): 307 to that link; all or linkset: the linkset; ' +
        'a type the item has no link of: 404.',
    ),
  picc_data: z.string().max(100).optional().describe('SUN PICCData of a tapped NTAG 424 DNA chip (or e).'),
  e: z.string().max(100).optional(),
  cmac: z.string().max(100).optional().describe('SUN MAC of the tap (or c).'),
  c: z.string().max(100).optional(),
  enc: z.string().max(2000).optional().describe('SDMENCFileData, when the chip mirrors encrypted file data.'),
  accessRole: z
    .enum(ACCESS_ROLES)
    .optional()
    .describe(
      'UNTP 0.7.0 audience: with format=untp or vc-jwt, that audience’s variant of a passport with product-group ' +
        'data (Customer: the owner or a fresh tap on this request; Regulator: authority; Recycler: recycler or ' +
        'repairer; Auditor: notified body; the brand reads all); with linkType=linkset, only that audience’s ' +
        'variant links.',
    ),
});

export type ResolverQuery = z.infer<typeof resolverQuery>;
