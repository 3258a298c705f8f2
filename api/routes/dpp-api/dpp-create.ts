import { z } from 'zod';
import { contentSpecifications } from '../../../src/passport/content/content-specification.ts';
import { ContentInvalid } from '../../../src/passport/content/passport-content.ts';
import { createLevelPassport } from '../../../src/passport/levels/create-level.ts';
import { findLevelById, levelDigitalLink } from '../../../src/passport/levels/levels.ts';
import { dppIdOf } from '../../../src/passport/record/passport-header.ts';
import { DomainError } from '../../../src/platform/errors.ts';
import type { AppContext } from '../../context.ts';
import { IDEMPOTENCY_DOC, respondIdempotently } from '../../idempotency.ts';
import { requireRight } from '../../middleware/require-right.ts';
import { Problem } from '../../problem.ts';
import { defineRoute } from '../../route.ts';
import type { RouteDeps } from '../deps.ts';
import { contentInvalidProblem } from './content-problem.ts';
import { anchorLevelVersions } from './level-lifecycle.ts';

// EN 18222 CreateDPP for model and batch passports (docs/granularity.md); item passports are minted.

/** Header members a compressed document may carry that the service sets itself (ignored on create). */
const SERVICE_SET = new Set([
  'digitalProductPassportId',
  'uniqueProductIdentifier',
  'dppSchemaVersion',
  'dppStatus',
  'lastUpdated',
  'lastUpdate',
  'economicOperatorId',
  'facilityId',
  'contentSpecificationIds',
]);

const createBody = z
  .looseObject({
    granularity: z
      .string()
      .describe(
        'Model or Batch (EN 18223 Granularity; any case). Item passports are minted: POST /v1/dpp/mint.',
      ),
    gtin: z.string().min(1).max(14).describe('The product’s GTIN-8, -12, -13 or -14 (check digit verified).'),
    lot: z.string().min(1).max(20).optional().describe('The batch/lot number (GS1 AI 10), for a batch only.'),
  })
  .describe(
    'The compressed document: granularity, gtin, lot, and one member per product-group section keyed by its ' +
      'content specification id (urn:dpp-service:spec:battery:1.0.0) holding data valid against it.',
  );

const created = z.object({
  digitalProductPassportId: z.string(),
  granularity: z.enum(['model', 'batch']),
  uniqueProductIdentifier: z.string(),
  contentSpecificationIds: z.array(z.string()),
  version: z.object({
    number: z.number().int(),
    createdAt: z.string(),
    sha256: z.string(),
    publicSha256: z.string(),
    anchorStatus: z.enum(['pending', 'anchored']),
  }),
});

function sectionsOf(body: Record<string, unknown>): Record<string, unknown> {
  const sections: Record<string, unknown> = {};
  const unknown: string[] = [];
  for (const [key, value] of Object.entries(body)) {
    if (key === 'granularity' || key === 'gtin' || key === 'lot' || SERVICE_SET.has(key)) continue;
    if (key.startsWith('urn:')) sections[key] = value;
    else unknown.push(key);
  }
  if (unknown.length > 0) {
    throw new Problem(400, 'validation_failed', `Unknown member(s): ${unknown.join(', ')}.`, {
      errors: unknown.map((key) => ({
        path: `body.${key}`,
        message: 'Unknown member',
        code: 'unrecognized_keys',
      })),
    });
  }
  return sections;
}

function granularityOf(value: string): 'model' | 'batch' {
  const granularity = value.toLowerCase();
  if (granularity === 'model' || granularity === 'batch') return granularity;
  if (granularity === 'item') {
    throw new DomainError(
      'invalid',
      'item_passports_are_minted',
      'An item passport is bound to its chip: mint it (POST /v1/dpp/mint, or provision and bind). It then ' +
        'inherits the model and batch passports of its GTIN and batch number.',
    );
  }
  throw new DomainError('invalid', 'invalid_granularity', 'granularity is Model or Batch.');
}

export function dppCreateRoutes(deps: RouteDeps) {
  return [
    defineRoute({
      method: 'post',
      path: '/v1/dpps',
      operationId: 'createDPP',
      summary: 'EN 18222 CreateDPP: a model or batch passport (no chip) with its product-group data.',
      description:
        'Creates the model passport of a GTIN (its GS1 Digital Link …/01/{gtin}) or the batch passport of a ' +
        'GTIN and lot (…/01/{gtin}/10/{lot}), owned by your company, with the product-group sections given ' +
        '(each valid against its content specification; the group’s rules hold as on every write). Items ' +
        'of that GTIN (and batch number) inherit its data at read time, their own values overriding ' +
        '(docs/granularity.md). One passport per key: 409 dpp_exists when yours, dpp_key_taken when another ' +
        'company’s. granularity Item answers 400 item_passports_are_minted. The first version is recorded ' +
        `with its hashes (anchorStatus pending until its anchor workflow has put them on chain).${IDEMPOTENCY_DOC}`,
      tags: ['dpps'],
      auth: 'apiKeyOrUser',
      idempotent: true,
      body: z.record(z.string(), z.unknown()),
      docBody: createBody,
      responses: {
        201: { description: 'Created (Location: GET /v1/dpps/{dppId}).', schema: created },
        400: {
          description:
            'validation_failed, invalid_gtin, invalid_lot, lot_not_allowed, invalid_granularity, ' +
            'item_passports_are_minted, content_invalid, invalid_content_specification_id.',
        },
        404: { description: 'content_specification_not_found.' },
        409: { description: 'dpp_exists (yours: its dppId named), dpp_key_taken (another company’s).' },
      },
      handler: async (ctx: AppContext, { body: raw }) => {
        await requireRight(ctx, 'managePassports', 'author passports');
        const parsed = createBody.safeParse(raw);
        if (!parsed.success) {
          throw new Problem(400, 'validation_failed', 'granularity and gtin are required strings.', {
            errors: parsed.error.issues.map((issue) => ({
              path: ['body', ...issue.path].join('.'),
              message: issue.message,
              code: issue.code,
            })),
          });
        }
        const granularity = granularityOf(parsed.data.granularity);
        const sections = sectionsOf(raw);
        const scope = ctx.state.scope!;
        await respondIdempotently(
          ctx,
          async (em) => {
            try {
              const { level, version } = await createLevelPassport(
                em,
                contentSpecifications,
                scope,
                { granularity, gtin: parsed.data.gtin, lot: parsed.data.lot, sections },
                deps.config.publicBaseUrl,
              );
              return {
                status: 201,
                body: {
                  digitalProductPassportId: dppIdOf(level.serviceUid),
                  granularity: level.granularity,
                  uniqueProductIdentifier: levelDigitalLink(deps.config.publicBaseUrl, level),
                  contentSpecificationIds: version.content.contentSpecificationIds,
                  version: {
                    number: version.number,
                    createdAt: version.createdAt.toISOString(),
                    sha256: version.sha256,
                    publicSha256: version.publicSha256,
                    anchorStatus: version.anchorStatus,
                  },
                },
              };
            } catch (error) {
              if (!(error instanceof ContentInvalid)) throw error;
              throw contentInvalidProblem(error);
            }
          },
          { atomic: true },
        );
        const dppId = (ctx.body as { digitalProductPassportId?: string } | undefined)
          ?.digitalProductPassportId;
        if (dppId) {
          ctx.set('Location', `/v1/dpps/${encodeURIComponent(dppId)}`);
          // After the commit (and on a replayed answer too: a pending first version is started again).
          const level = await findLevelById(deps.orm.em.fork(), scope.environment, dppId);
          if (level) await anchorLevelVersions(ctx, deps, level);
        }
      },
    }),
  ];
}
