import { z } from 'zod';
import { LOGGABLE_ACTIONS } from '../../../src/lifecycle/supply-chain/actions.ts';
import { METADATA_LIMITS, metadataProblem } from '../../../src/lifecycle/supply-chain/metadata-limits.ts';

export const tokenIdField = z
  .string()
  .regex(/^[1-9][0-9]{0,77}$/, 'tokenId must be a positive decimal integer')
  .describe('Passport token id (decimal).');

export const logEventBody = z.object({
  tokenId: tokenIdField,
  action: z
    .enum(LOGGABLE_ACTIONS)
    .describe(
      'MINT, AUTHORIZE_CLAIM, CLAIM_OWNERSHIP, RECYCLE_TRANSFER and PRODUCT_DATA_UPDATED are written by the ' +
        'service itself.',
    ),
  locationName: z.string().trim().min(1).max(200),
  latitude: z.number().min(-90).max(90).describe('Decimal degrees, −90 … 90.'),
  longitude: z.number().min(-180).max(180).describe('Decimal degrees, −180 … 180.'),
  metadata: z
    .record(z.string(), z.unknown())
    .default({})
    .superRefine((metadata, ctx) => {
      const problem = metadataProblem(metadata);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .describe(
      `Free-form object: at most ${METADATA_LIMITS.maxBytes} bytes as JSON, ${METADATA_LIMITS.maxKeys} keys ` +
        `(all levels) and ${METADATA_LIMITS.maxDepth} levels deep.`,
    ),
  actorEmail: z
    .email()
    .max(320)
    .optional()
    .describe('Who logged it on your side. Stored as given; every response and webhook shows it masked.'),
});

export const supplyChainEventSchema = z.object({
  id: z.number().int(),
  tokenId: z.string(),
  action: z.string(),
  actor: z.string().nullable(),
  actorEmail: z
    .string()
    .nullable()
    .describe(
      'Masked, e.g. j***@a***.com. null when the event was logged without an actorEmail (an API key’s ' +
        'events name no person): an extension, the spec shows a string (docs/api-conventions.md).',
    ),
  locationName: z.string().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  metadata: z.record(z.string(), z.unknown()),
  dataHash: z.string().nullable().describe('keccak256 logged on chain (see docs/supply-chain.md).'),
  transactionHash: z.string().nullable().describe('null until the event is anchored on chain.'),
  blockNumber: z.number().int().nullable(),
  contractAddress: z.string().nullable(),
  environment: z.enum(['live', 'test']),
  timestamp: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
