import { z } from 'zod';
import { chipKeysStatus, setChipKeys } from '../../../src/chips/chip-keys.ts';
import type { AppContext } from '../../context.ts';
import { defineRoute } from '../../route.ts';
import type { RouteDeps } from '../deps.ts';
import { hexField } from './schemas.ts';

const status = z.object({
  success: z.literal(true),
  source: z
    .enum(['configured', 'factory_default', 'missing'])
    .describe('factory_default: the test environment uses NXP all-zero keys until keys are set.'),
  updatedAt: z.iso.datetime().nullable(),
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
        };
      },
    }),
    defineRoute({
      method: 'put',
      path: '/v1/dpp/chip-keys',
      operationId: 'setChipKeys',
      summary: 'Set the NTAG 424 DNA SDM keys used to verify this company’s taps in this environment.',
      description: 'Write-only: keys are stored encrypted and never returned by any API.',
      tags: ['dpp'],
      auth: 'apiKey',
      body: z
        .object({
          sdmMetaReadKey: hexField(16, 'sdmMetaReadKey').describe(
            'K_SDMMetaRead (AES-128), decrypts PICCData.',
          ),
          sdmFileReadKey: hexField(16, 'sdmFileReadKey').describe(
            'K_SDMFileRead (AES-128), derives the MAC key.',
          ),
        })
        .strict(),
      responses: { 200: { description: 'Stored.', schema: status } },
      handler: async (
        ctx: AppContext,
        { body }: { body: { sdmMetaReadKey: string; sdmFileReadKey: string } },
      ) => {
        const updatedAt = await setChipKeys(ctx.state.em!, deps.secretBox, ctx.state.scope!, {
          metaReadKey: Buffer.from(body.sdmMetaReadKey, 'hex'),
          fileReadKey: Buffer.from(body.sdmFileReadKey, 'hex'),
        });
        ctx.body = { success: true, source: 'configured', updatedAt: updatedAt.toISOString() };
      },
    }),
  ];
}
