import { z } from 'zod';
import { chipKeysStatus, setChipKeys } from '../../../src/chips/chip-keys.ts';
import { MAX_SYSTEM_IDENTIFIER_BYTES } from '../../../src/standards/sun/index.ts';
import type { AppContext } from '../../context.ts';
import { defineRoute } from '../../route.ts';
import type { RouteDeps } from '../deps.ts';
import { hexField } from './schemas.ts';

const diversification = z
  .object({
    scheme: z.literal('AN10922'),
    systemIdentifier: z
      .string()
      .trim()
      .regex(
        new RegExp(`^([0-9a-fA-F]{2}){0,${MAX_SYSTEM_IDENTIFIER_BYTES}}$`),
        `systemIdentifier must be 0–${MAX_SYSTEM_IDENTIFIER_BYTES} bytes as hex digits`,
      )
      .default('')
      .transform((value) => value.toUpperCase())
      .describe(
        'Appended to the 7-byte UID as diversification input (e.g. an application id); may be empty.',
      ),
  })
  .strict()
  .describe(
    'sdmFileReadKey is a master key: each chip’s K_SDMFileRead = AES-CMAC(master, 0x01 || UID || systemIdentifier) ' +
      '(NXP AN10922). The meta-read key cannot be diversified by UID: the UID is inside the PICCData it decrypts.',
  );

const status = z.object({
  success: z.literal(true),
  source: z
    .enum(['configured', 'factory_default', 'missing'])
    .describe('factory_default: the test environment uses NXP all-zero keys until keys are set.'),
  updatedAt: z.iso.datetime().nullable(),
  fileReadKeyDiversification: diversification.nullable(),
});

export function chipKeyRoutes(deps: RouteDeps) {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/dpp/chip-keys',
      operationId: 'getChipKeysStatus',
      summary:
        'Whether SUN keys are configured for this environment (the keys themselves are never returned).',
      tags: ['dpp'],
      auth: 'apiKey',
      responses: { 200: { description: 'Key status.', schema: status } },
      handler: async (ctx: AppContext) => {
        const result = await chipKeysStatus(ctx.state.em!, ctx.state.scope!);
        ctx.body = {
          success: true,
          source: result.source,
          updatedAt: result.updatedAt?.toISOString() ?? null,
          fileReadKeyDiversification: result.fileReadKeyDiversification,
        };
      },
    }),
    defineRoute({
      method: 'put',
      path: '/v1/dpp/chip-keys',
      operationId: 'setChipKeys',
      summary: 'Set the NTAG 424 DNA SDM keys used to verify this company’s taps in this environment.',
      description:
        'Write-only: keys are stored encrypted and never returned by any API. With fileReadKeyDiversification, ' +
        'sdmFileReadKey is a master key and each chip’s own key is derived from it and the chip’s UID (AN10922).',
      tags: ['dpp'],
      auth: 'apiKey',
      body: z
        .object({
          sdmMetaReadKey: hexField(16, 'sdmMetaReadKey').describe(
            'K_SDMMetaRead (AES-128), decrypts PICCData.',
          ),
          sdmFileReadKey: hexField(16, 'sdmFileReadKey').describe(
            'K_SDMFileRead (AES-128), derives the MAC key; the master key when fileReadKeyDiversification is set.',
          ),
          fileReadKeyDiversification: diversification.nullable().optional(),
        })
        .strict(),
      responses: { 200: { description: 'Stored.', schema: status } },
      handler: async (ctx: AppContext, { body }) => {
        const fileReadKeyDiversification = body.fileReadKeyDiversification ?? null;
        const updatedAt = await setChipKeys(ctx.state.em!, deps.secretBox, ctx.state.scope!, {
          metaReadKey: Buffer.from(body.sdmMetaReadKey, 'hex'),
          fileReadKey: Buffer.from(body.sdmFileReadKey, 'hex'),
          fileReadKeyDiversification,
        });
        ctx.body = {
          success: true,
          source: 'configured',
          updatedAt: updatedAt.toISOString(),
          fileReadKeyDiversification,
        };
      },
    }),
  ];
}
