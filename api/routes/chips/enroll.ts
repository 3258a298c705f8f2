import { z } from 'zod';
import { enrollChip } from '../../../src/chips/enroll.ts';
import type { AppContext } from '../../context.ts';
import { defineRoute } from '../../route.ts';
import { chipUidField } from './schemas.ts';

const enrollBody = z
  .object({
    chipUid: chipUidField,
    productId: z.string().trim().min(1).max(200).nullable().optional(),
    chipType: z
      .enum(['NTAG 424 DNA', 'NTAG 424 DNA TT'])
      .optional()
      .describe(
        'NTAG 424 DNA TT (TagTamper): its SUN message carries the tamper loop status at the start of the ' +
          'SDMENCFileData, and an open loop raises the tamper_open signal (docs/signals.md). Default NTAG 424 DNA.',
      ),
  })
  .strict();

export const enrollRoute = defineRoute({
  method: 'post',
  path: '/v1/dpp/enroll',
  operationId: 'enrollChip',
  summary: 'Register a physical chip into inventory (status INACTIVE).',
  description:
    'The UID is stored in canonical form (14 uppercase hex digits). Enrolling a chip you already enrolled ' +
    'answers 200 with the existing record and sends no second asset.initialized; a chip enrolled by another ' +
    'account answers 409 chip_enrolled_elsewhere.',
  tags: ['dpp'],
  auth: 'apiKey',
  body: enrollBody,
  responses: {
    409: { description: 'chip_enrolled_elsewhere: the chip UID is enrolled by another company.' },
    201: {
      description: 'Enrolled; asset.initialized is queued for webhook subscribers.',
      schema: z.object({
        success: z.literal(true),
        message: z.string(),
        data: z.object({ id: z.number().int(), chipUid: z.string(), status: z.literal('INACTIVE') }),
      }),
    },
    200: { description: 'Already enrolled by you: the existing record.' },
  },
  handler: async (ctx: AppContext, { body }) => {
    const { chip, created } = await enrollChip(ctx.state.em!, ctx.state.scope!, {
      chipUid: body.chipUid,
      productId: body.productId ?? null,
      chipType: body.chipType,
    });
    ctx.status = created ? 201 : 200;
    ctx.body = {
      success: true,
      message: created ? 'Chip enrolled into inventory.' : 'Chip was already enrolled.',
      data: { id: chip.id, chipUid: chip.chipUid, status: chip.status },
    };
  },
});
