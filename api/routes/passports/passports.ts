import { z } from 'zod';
import { explorerTxUrl } from '../../../src/adapters/chain/explorer.ts';
import { requireWorkflows } from '../../../src/adapters/temporal/start.ts';
import { canonicalChipUid } from '../../../src/chips/enroll.ts';
import { passportOverview } from '../../../src/passport/record/passport-overview.ts';
import { RUNNING_MINTS_MAX, runningMints } from '../../../src/passport/record/running-mints.ts';
import {
  listPassports,
  PASSPORT_SEARCH_MAX,
  PASSPORT_SEARCH_TEXT_MIN,
  PASSPORT_STATUSES,
} from '../../../src/passport/record/search-passports.ts';
import { normalizeGtin } from '../../../src/standards/gs1/gtin.ts';
import type { AppContext } from '../../context.ts';
import { requireRight } from '../../middleware/require-right.ts';
import { defineRoute } from '../../route.ts';
import type { RouteDeps } from '../deps.ts';
import { tokenIdField } from '../supply-chain/schemas.ts';
import { afterCursor, gtinFilter } from './query-fields.ts';

const searchQuery = z.object({
  q: z
    .string()
    .trim()
    .min(PASSPORT_SEARCH_TEXT_MIN, `Search text must be at least ${PASSPORT_SEARCH_TEXT_MIN} characters`)
    .max(100, 'Search text must be at most 100 characters')
    .optional()
    .describe(
      'Free text: a fragment (any case) of the product name, GTIN, batch, chip UID or token id, at least ' +
        `${PASSPORT_SEARCH_TEXT_MIN} characters.`,
    ),
  chipUid: z.string().trim().min(1).max(40).optional().describe('The chip UID (hex, any case), exactly.'),
  tokenId: tokenIdField.optional(),
  gtin: gtinFilter,
  batch: z.string().trim().min(1).max(100).optional().describe('The batch/lot given at mint, exactly.'),
  status: z.enum(PASSPORT_STATUSES).optional().describe('ACTIVE, REVOKED (credential revoked) or RECYCLED.'),
  limit: z.coerce.number().int().min(1).max(PASSPORT_SEARCH_MAX).default(25).describe('Passports per page.'),
  after: afterCursor,
});

const summary = z.object({
  tokenId: z.string(),
  chipUid: z.string(),
  name: z.string().nullable(),
  gtin: z.string().nullable(),
  batch: z.string().nullable(),
  productId: z.string().nullable(),
  status: z.string().describe('ACTIVE, REVOKED or RECYCLED.'),
  mintedAt: z.string(),
  transactionHash: z.string().describe('The mint’s transaction.'),
});

/** A search row adds where its mint transaction can be seen (the passport itself has the whole timeline). */
const searchRow = summary.extend({
  transactionUrl: z
    .string()
    .nullable()
    .describe('The mint transaction on the block explorer (CHAIN_EXPLORER_URL_*); null without one.'),
});

const timelineEntry = z.object({
  kind: z.enum(['minted', 'event', 'revoked']),
  action: z.string(),
  at: z.string(),
  locationName: z.string().nullable(),
  transactionHash: z
    .string()
    .nullable()
    .describe('Null while an event is being anchored, and for a revocation.'),
  blockNumber: z.number().int().nullable(),
  reason: z.string().nullable(),
});

const overview = summary.extend({
  digitalProductPassportId: z
    .string()
    .describe('Its EN 18222 id (GET /v1/dpps/{dppId}, its content and completeness).'),
  material: z.string().nullable(),
  manufacturer: z.string().nullable(),
  revokedAt: z.string().nullable(),
  revocationReason: z.string().nullable(),
  ownerWallet: z.string(),
  owner: z
    .object({
      address: z.string().describe('ownerWallet, checksummed.'),
      kind: z
        .enum(['company-custody', 'smart-account', 'personal-wallet', 'other'])
        .describe(
          'company-custody: the company’s own custody wallet (not sold); smart-account: the buyer’s ERC-4337 ' +
            'account; personal-wallet: the buyer’s wallet from before smart accounts; other: not one of ours.',
        ),
      deployed: z
        .boolean()
        .nullable()
        .describe(
          'A smart account: created on chain yet (by its first sponsored operation). Null otherwise.',
        ),
    })
    .describe('Who holds the passport (docs/smart-accounts.md, "In the console").'),
  contractAddress: z.string(),
  transactionHash: z.string(),
  mintBlock: z.number().int(),
  metadataUrl: z.string(),
  taps: z.object({
    count: z.number().int().describe('Verified taps of the passport’s chip.'),
    lastAt: z.string().nullable(),
  }),
  timeline: z.array(timelineEntry).describe('Oldest first: the mint, supply-chain events, a revocation.'),
  links: z.object({
    publicPage: z.string().describe('The public verification page.'),
    digitalLink: z.string().describe('The GS1 Digital Link.'),
    credential: z.string().describe('The W3C verifiable credential (application/ld+json).'),
  }),
});

const PEOPLE =
  'API keys and OAuth clients, and the company’s people (user token or console session) in every role.';

/** GET /v1/dpp/passports (search), GET /v1/dpp/passports/{tokenId} (one passport), GET /v1/dpp/mints: the console's Passports. */
export function passportRoutes(deps: RouteDeps) {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/dpp/passports',
      operationId: 'searchPassports',
      summary:
        'Search the company’s passports: free text, chip UID, token id, GTIN, batch and status, newest first.',
      description:
        '`q` matches a fragment of the product name, GTIN, batch, chip UID or token id (a trigram index); the ' +
        'other filters take exact values. Every filter given must match. A bad value → 400 `validation_failed` ' +
        'with `errors[].path` naming the field (`query.q`) and the rule in `message`. Keyset paging: pass `nextCursor` as `after` for the next ' +
        'page (null on the last); each filter reads its own index, so a page costs the same among hundreds of ' +
        'thousands of passports. Unlike /v1/dpp/inventory (chips in enrollment order, minted or not), only ' +
        `minted passports. ${PEOPLE}`,
      tags: ['dpp'],
      auth: 'apiKeyOrUser',
      query: searchQuery,
      responses: {
        400: {
          description: 'A filter or `after` that is not valid (e.g. a cursor that is not one handed out).',
        },
        200: {
          description: 'A page of passports.',
          schema: z.object({
            success: z.literal(true),
            passports: z.array(searchRow),
            nextCursor: z.string().nullable(),
          }),
        },
      },
      handler: async (ctx: AppContext, { query }) => {
        await requireRight(ctx, 'read', 'see passports');
        const page = await listPassports(ctx.state.em!, ctx.state.scope!, {
          ...query,
          chipUid: query.chipUid === undefined ? undefined : canonicalChipUid(query.chipUid),
          gtin: query.gtin === undefined ? undefined : normalizeGtin(query.gtin),
        });
        const template = deps.config.chain[ctx.state.scope!.environment].explorerTxUrl;
        ctx.body = {
          success: true,
          nextCursor: page.nextCursor,
          passports: page.passports.map((row) => ({
            ...row,
            transactionUrl: explorerTxUrl(template, row.transactionHash),
          })),
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/dpp/passports/:tokenId',
      operationId: 'getPassport',
      summary: 'One of the company’s passports: facts, on-chain timeline, taps, public links.',
      description: `Another company’s or environment’s passport → 404. ${PEOPLE}`,
      tags: ['dpp'],
      auth: 'apiKeyOrUser',
      params: z.object({ tokenId: tokenIdField }),
      responses: {
        404: { description: 'passport_not_found.' },
        200: {
          description: 'The passport.',
          schema: z.object({ success: z.literal(true), passport: overview }),
        },
      },
      handler: async (ctx: AppContext, { params }) => {
        await requireRight(ctx, 'read', 'see passports');
        ctx.body = {
          success: true,
          passport: await passportOverview(ctx.state.em!, params.tokenId, deps.config.publicBaseUrl, {
            custodyMasterSecret: deps.config.secrets.custodyMasterSecret,
            walletMasterSecret: deps.config.identity.walletMasterSecret,
          }),
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/dpp/mints',
      operationId: 'listRunningMints',
      summary:
        'The company’s mints under way in this environment, newest first, with any operator attention.',
      description:
        `Up to ${RUNNING_MINTS_MAX} (\`more\` says whether there are others), from the workflow service's ` +
        'visibility (eventually consistent: a mint started a moment ago may show a moment later). Each mint’s ' +
        `step and transaction: GET /v1/dpp/mint/{chipUid}. ${PEOPLE}`,
      tags: ['dpp'],
      auth: 'apiKeyOrUser',
      responses: {
        503: { description: 'workflows_unavailable: this process runs without the workflow service.' },
        200: {
          description: 'The running mints.',
          schema: z.object({
            success: z.literal(true),
            mints: z.array(
              z.object({
                chipUid: z.string(),
                workflowId: z.string(),
                startedAt: z.string(),
                attention: z
                  .string()
                  .nullable()
                  .describe('record_failed: on chain, but recording it keeps failing (it retries).'),
              }),
            ),
            more: z.boolean(),
          }),
        },
      },
      handler: async (ctx: AppContext) => {
        await requireRight(ctx, 'read', 'see mints');
        const running = await runningMints(requireWorkflows(deps.workflows).client, ctx.state.scope!);
        running.mints.sort((a, b) => b.startedAt.localeCompare(a.startedAt));
        ctx.body = { success: true, ...running };
      },
    }),
  ];
}
