import { z } from 'zod';
import { httpUrl } from '../mint/mint-request.ts';

/** Largest bulk provisioning call (items); documented in docs/erp-and-factory.md. */
export const BULK_PROVISION_MAX_ITEMS = 10_000;

export const conformityUrl = httpUrl
  .optional()
  .describe(
    'The product’s declaration of conformity (optional). The mint of a toolbox bind (POST /v1/factory/bind ' +
      'shape B) records it, else the company default; with neither that bind is refused (400).',
  );

/** One bulk provisioning item (and one spreadsheet import row): the rule both apply. */
export const erpMetadata = z
  .object({
    material_number: z.string().trim().min(1).max(100),
    order_id: z.string().trim().min(1).max(100),
    conformity_url: conformityUrl,
  })
  .strict();
