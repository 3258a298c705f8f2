import { z } from 'zod';
import { gtinSchema } from '../../../src/lifecycle/mint/mint-request.ts';
import {
  BULK_PROVISION_MAX_ITEMS,
  conformityUrl,
  erpMetadata,
} from '../../../src/lifecycle/provision/erp-metadata.ts';
import { provisionTwin, provisionTwinsBulk } from '../../../src/lifecycle/provision/provision.ts';
import { isAi82Value } from '../../../src/standards/gs1/qualifiers.ts';
import type { AppContext } from '../../context.ts';
import { IDEMPOTENCY_DOC, respondIdempotently } from '../../idempotency.ts';
import { defineRoute } from '../../route.ts';
import { validate } from '../../validation.ts';

/** Room for 10,000 items with fields at their maximum lengths. */
const BULK_BODY_LIMIT_BYTES = 8 * 1024 * 1024;

const erpShape = z.object({ erp_metadata: erpMetadata }).strict();
const gtinShape = z
  .object({
    gtin: gtinSchema,
    batch: z
      .string()
      .refine(isAi82Value, 'A batch/lot is 1–20 characters of GS1 character set 82 (AI 10).')
      .optional()
      .describe(
        'The batch/lot (GS1 AI 10). The bound item’s custom_dpp_data.batch_number: it inherits the batch ' +
          'passport of this GTIN and lot (docs/granularity.md).',
      ),
    metadata: z.object({ name: z.string().trim().min(1).max(200), conformity_url: conformityUrl }).strict(),
  })
  .strict();

/** The GTIN shape is the one carrying `gtin` or `metadata`; anything else is read as the ERP shape. */
function provisionShapeOf(body: Record<string, unknown>) {
  return 'gtin' in body || 'metadata' in body ? gtinShape : erpShape;
}

const bulkBody = z
  .object({
    items: z
      .array(z.object({ erp_metadata: erpMetadata }).strict())
      .min(1)
      .max(BULK_PROVISION_MAX_ITEMS),
  })
  .strict();

export const provisionRoutes = [
  defineRoute({
    method: 'post',
    path: '/v1/erp/provision',
    operationId: 'provisionTwin',
    summary: 'Reserve an asset twin (INACTIVE) from ERP metadata or a GTIN with a product name.',
    description: `Answers the twin's service_internal_id, the handle for POST /v1/factory/bind.${IDEMPOTENCY_DOC}`,
    tags: ['erp'],
    auth: 'apiKey',
    idempotent: true,
    body: z.record(z.string(), z.unknown()),
    docBody: z.union([erpShape, gtinShape]),
    responses: {
      201: {
        description: 'Twin reserved.',
        schema: z.object({
          success: z.literal(true),
          service_internal_id: z.string(),
          status: z.literal('INACTIVE'),
        }),
      },
    },
    handler: async (ctx: AppContext, { body: raw }) => {
      const body = validate<z.infer<typeof erpShape> | z.infer<typeof gtinShape>>(
        provisionShapeOf(raw),
        raw,
        'body',
      );
      await respondIdempotently(
        ctx,
        async (em) => {
          const input =
            'erp_metadata' in body
              ? { erp: body.erp_metadata }
              : {
                  gtin: body.gtin,
                  name: body.metadata.name,
                  batch: body.batch,
                  conformityUrl: body.metadata.conformity_url,
                };
          const id = await provisionTwin(em, ctx.state.scope!, input);
          return { status: 201, body: { success: true, service_internal_id: id, status: 'INACTIVE' } };
        },
        { atomic: true },
      );
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/erp/provision/bulk',
    operationId: 'provisionTwinsBulk',
    summary: `Reserve up to ${BULK_PROVISION_MAX_ITEMS} twins in one call, all or nothing.`,
    description:
      'Items are answered in request order. Any invalid item fails the whole call with 400 naming every bad ' +
      `field by index (body.items.17.erp_metadata.material_number); nothing is written then.${IDEMPOTENCY_DOC}`,
    tags: ['erp'],
    auth: 'apiKey',
    idempotent: true,
    body: bulkBody,
    bodyLimitBytes: BULK_BODY_LIMIT_BYTES,
    responses: {
      201: {
        description: 'All twins reserved.',
        schema: z.object({
          success: z.literal(true),
          count: z.number().int(),
          items: z.array(z.object({ material_number: z.string(), service_internal_id: z.string() })),
        }),
      },
    },
    handler: async (ctx: AppContext, { body }) => {
      await respondIdempotently(
        ctx,
        async (em) => {
          const erp = body.items.map((item) => item.erp_metadata);
          const ids = await provisionTwinsBulk(em, ctx.state.scope!, erp);
          const items = erp.map((item, i) => ({
            material_number: item.material_number,
            service_internal_id: ids[i],
          }));
          return { status: 201, body: { success: true, count: items.length, items } };
        },
        { atomic: true },
      );
    },
  }),
];
