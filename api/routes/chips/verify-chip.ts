import { z } from 'zod';
import { clientHash } from '../../../src/chips/signals/client-hash.ts';
import { verifyTap } from '../../../src/chips/verify-tap.ts';
import { verdictKey } from '../../../src/passport/views/tap-verdict.ts';
import type { AppContext } from '../../context.ts';
import { defineRoute } from '../../route.ts';
import type { RouteDeps } from '../deps.ts';
import { chipUidField, hexField } from './schemas.ts';

const verifyChipBody = z
  .object({
    chipUid: chipUidField,
    piccData: z
      .string()
      .trim()
      .regex(
        /^([0-9a-fA-F]{32}|[0-9a-fA-F]{48})$/,
        'piccData must be 16 bytes (AES mode) or 24 bytes (LRP mode) as hex digits',
      )
      .describe('Encrypted PICCData: 16 bytes in AES mode, 24 (PICCRand || encrypted PICCData) in LRP mode.'),
    cmac: hexField(8, 'cmac'),
    enc: z
      .string()
      .trim()
      .regex(/^([0-9a-fA-F]{32})+$/, 'enc must be a multiple of 16 bytes as hex digits')
      .optional()
      .describe(
        'SDMENCFileData, when the chip mirrors encrypted file data (MAC input is then "<enc>&cmac=").',
      ),
  })
  .strict();

export function verifyChipRoute(deps: RouteDeps) {
  const clientKey = verdictKey(deps.config.secrets.dataEncryptionKey);
  return defineRoute({
    method: 'post',
    path: '/v1/dpp/verify-chip',
    operationId: 'verifyChip',
    summary: 'Validate a chip SUN signature (NTAG 424 DNA, AES mode).',
    description:
      'Answers 200 with authentic true/false. A genuine tap accepts its read counter: replaying the same ' +
      'signature (or an older one) answers authentic false with reason replayed. Malformed hex → 400; a chip ' +
      'not enrolled in this environment → 404.',
    tags: ['dpp'],
    auth: 'apiKey',
    body: verifyChipBody,
    responses: {
      404: { description: 'chip_not_found: the chip is not enrolled in this company and environment.' },
      409: {
        description:
          'chip_keys_not_configured: live chips need the company’s SUN keys (PUT /v1/dpp/chip-keys).',
      },
      200: {
        description: 'The verdict.',
        schema: z.object({
          success: z.literal(true),
          authentic: z.boolean(),
          counter: z.number().int().nullable(),
          chipType: z.string(),
          reason: z.enum(['bad_cmac', 'bad_tag', 'uid_mismatch', 'replayed']).optional(),
          message: z.string().optional(),
        }),
      },
    },
    handler: async (ctx: AppContext, { body }) => {
      const sun = body.enc
        ? { piccData: body.piccData, cmac: body.cmac, encFileData: body.enc, macInput: `${body.enc}&cmac=` }
        : { piccData: body.piccData, cmac: body.cmac };
      // verifyTap's statements are raw and scoped by hand: the root manager spares the request a fork.
      const verdict = await verifyTap(deps.orm.em, deps.secretBox, ctx.state.scope!, {
        chipUid: body.chipUid,
        sun,
        client: clientHash(clientKey, ctx.state.clientAddress),
      });
      ctx.body = verdict.authentic
        ? { success: true, authentic: true, counter: verdict.counter, chipType: verdict.chipType }
        : {
            success: true,
            authentic: false,
            counter: verdict.counter,
            chipType: verdict.chipType,
            reason: verdict.reason,
            message: verdict.message,
          };
    },
  });
}
