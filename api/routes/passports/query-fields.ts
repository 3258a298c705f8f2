import { z } from 'zod';
import { normalizeGtin } from '../../../src/standards/gs1/gtin.ts';

/** A GTIN filter of a list (the handler normalises it to 14 digits). */
export const gtinFilter = z
  .string()
  .trim()
  .refine((value) => normalizeGtin(value) !== undefined, {
    message: 'GTIN must be 8, 12, 13 or 14 digits with a valid GS1 check digit',
  })
  .optional()
  .describe('GTIN-8, -12, -13 or -14 (normalised to 14 digits), exactly.');

/** Keyset paging: the previous page's nextCursor. */
export const afterCursor = z.coerce
  .number()
  .int()
  .min(1)
  .max(2_147_483_647)
  .optional()
  .describe('The nextCursor of the previous page.');
