import { z } from 'zod';
import { requireWorkflows } from '../../../src/adapters/temporal/start.ts';
import { passportAasEnvironment } from '../../../src/passport/aas/battery/battery-environment.ts';
import { contentEtag } from '../../../src/passport/content/content-etag.ts';
import { contentSpecifications } from '../../../src/passport/content/content-specification.ts';
import { ROLES } from '../../../src/passport/content/disclosure.ts';
import { sourcesOf } from '../../../src/passport/content/merge-layers.ts';
import { requireSpecification } from '../../../src/passport/content/passport-content.ts';
import { replacePassportContent } from '../../../src/passport/content/put-content.ts';
import { callerRoles } from '../../../src/passport/disclosure/caller-roles.ts';
import { discloseContent } from '../../../src/passport/disclosure/disclose-content.ts';
import { findDppById } from '../../../src/passport/dpp-api/find-dpp.ts';
import { itemContentView, levelContentView } from '../../../src/passport/levels/content-view.ts';
import { findLevelById } from '../../../src/passport/levels/levels.ts';
import { dppIdOf } from '../../../src/passport/record/passport-header.ts';
import { DomainError } from '../../../src/platform/errors.ts';
import type { AppContext } from '../../context.ts';
import { requireRight } from '../../middleware/require-right.ts';
import { defineRoute } from '../../route.ts';
import type { RouteDeps } from '../deps.ts';
import { allowAnyOrigin, publicEnvironment } from '../resolver/http.ts';
import { contentWriteProblem } from './content-write-problem.ts';
import { contentWriterOf } from './dynamic-writer.ts';
import { ownLevel, putLevelContent } from './level-lifecycle.ts';
import {
  anchorProductDataEvents,
  eventSummary,
  productDataEventView,
  versionSummary,
  versionView,
} from './product-data-event.ts';

// Product-group content (issue 25, docs/content-specifications.md): the registry of versioned data models
// (public), and a passport's data of one model, written and read by the owning company.

const specIdParam = z
  .string()
  .min(1)
  .max(200)
  .describe(
    'A content specification id, urn:dpp-service:spec:<group>:<major.minor.patch> (percent-encoded).',
  );
const dppIdParam = z
  .string()
  .min(1)
  .max(200)
  .describe('The digitalProductPassportId (urn:uuid:…) or its UUID.');
const contentParams = z.object({ dppId: dppIdParam, specId: specIdParam });

const summary = z.object({ id: z.string(), group: z.string(), version: z.string(), title: z.string() });
const fieldPolicy = z.object({ tier: z.string(), roles: z.array(z.enum(ROLES)) });
const contentBody = z.object({
  digitalProductPassportId: z.string(),
  contentSpecificationId: z.string(),
  data: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
  updatedAt: z.string(),
});

const written = contentBody.extend({
  version: versionView.describe('The passport’s version after this write (its latest when nothing changed).'),
  event: productDataEventView
    .nullable()
    .describe(
      'The anchored PRODUCT_DATA_UPDATED event of this change; null when nothing changed, and for a model or ' +
        'batch passport (no token: its version is anchored, docs/granularity.md).',
    ),
});

const CONTENT_DESCRIPTION =
  'The body is the product-group data itself, a JSON object following the specification’s JSON Schema ' +
  '(GET /v1/content-specifications/{specId}); it replaces what was written before. The first write pins the ' +
  'passport to that specification version (its EN 18223 header then lists it in contentSpecificationIds); a ' +
  'write naming another version of the same product group answers 409 content_specification_pinned. Data not ' +
  'following the pinned version answers 400 content_invalid with one `errors` entry per offending field, ' +
  '`path` an RFC 6901 JSON pointer into the body (`/performanceAndDurability/ratedCapacityAh`). Every write ' +
  'that changes the data is a new passport version and a PRODUCT_DATA_UPDATED supply-chain event anchored on ' +
  'chain (`event` in the answer; follow it on GET …/dynamic/{eventId}); a write changing nothing answers ' +
  '`event: null`. The product group’s rules hold as on every write path (battery: waste is final and nothing ' +
  'returns to original, 409 battery_status_final). Concurrency: GET and this answer carry a strong `ETag`; ' +
  'send it as `If-Match` to write only over the data you read (412 precondition_failed otherwise, with ' +
  '`currentETag` and `currentVersion`; `If-Match: *` only when data exists); with a matching If-Match the body ' +
  'replaces the data whole (the way to correct appended use data, anchored like any change). Without If-Match ' +
  'the use data appended by the dynamic operation is kept: battery `negativeEvents` and `accidentReports` keep ' +
  'every stored item (the body’s new items are appended), a body without `batteryCondition` keeps the stored ' +
  'one, older measured values do not replace newer ones (docs/battery-passport.md). Disclosure: the ' +
  'specification’s per-field policy says which roles may read each field; GET serves each caller those ' +
  'fields only (docs/disclosure.md).';

/** The passport a content operation names, of the caller's company (another company's: 404, as if absent). */
export async function ownPassport(ctx: AppContext, dppId: string) {
  const scope = ctx.state.scope!;
  const ref = await findDppById(ctx.state.em!, scope.environment, dppId);
  if (ref.companyId !== scope.companyId) {
    throw new DomainError('not_found', 'dpp_not_found', `No passport ${dppIdOf(ref.serviceUid)}.`);
  }
  return ref;
}

export function dppContentRoutes(deps: RouteDeps) {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/content-specifications',
      operationId: 'listContentSpecifications',
      summary: 'List the product-group content specifications (versioned data models) passports may pin.',
      tags: ['dpps'],
      auth: 'none',
      environmentHeader: false,
      responses: {
        200: { description: 'Every registered version.', schema: z.object({ items: z.array(summary) }) },
      },
      handler: async (ctx: AppContext) => {
        ctx.body = {
          items: contentSpecifications
            .list()
            .map(({ id, group, version, title }) => ({ id, group, version, title })),
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/content-specifications/:specId',
      operationId: 'getContentSpecification',
      summary: 'One content specification: its JSON Schema and its per-field disclosure policy.',
      description:
        'policy maps each field (JSON pointer, `*` for any array item) to the roles that may read it ' +
        `(${ROLES.join(', ')}) and the rule (tier) they come from.`,
      tags: ['dpps'],
      auth: 'none',
      environmentHeader: false,
      params: z.object({ specId: specIdParam }),
      responses: {
        200: {
          description: 'The specification.',
          schema: summary.extend({
            schema: z.record(z.string(), z.unknown()),
            policy: z.record(z.string(), fieldPolicy),
          }),
        },
      },
      handler: async (ctx: AppContext, { params }) => {
        const spec = requireSpecification(contentSpecifications, params.specId);
        ctx.body = {
          id: spec.id,
          group: spec.group,
          version: spec.version,
          title: spec.title,
          schema: spec.schema,
          policy: spec.policy,
        };
      },
    }),
    defineRoute({
      method: 'put',
      path: '/v1/dpps/:dppId/content/:specId',
      operationId: 'putDppContent',
      summary: 'Write a passport’s product-group data against a content specification (pins its version).',
      description: CONTENT_DESCRIPTION,
      tags: ['dpps'],
      auth: 'apiKeyOrUser',
      params: contentParams,
      body: z.record(z.string(), z.unknown()),
      responses: {
        200: { description: 'Replaced (ETag header: the data as now stored).', schema: written },
        201: { description: 'First write: the passport is now pinned to this version.', schema: written },
        400: {
          description:
            'content_invalid (errors[] names each field by JSON pointer), invalid_content_specification_id, invalid_dpp_id.',
        },
        404: { description: 'dpp_not_found (or another company’s), content_specification_not_found.' },
        409: {
          description:
            'content_specification_pinned: the passport follows another version of this group; battery_status_final; token_recycled; passport_revoked; dpp_suspended, dpp_archived (items and model or batch passports alike).',
        },
        412: {
          description:
            'precondition_failed: If-Match does not name the current data (stale, malformed, weak, or no data yet); ' +
            '`currentETag` and `currentVersion` (the passport’s latest version number) say what is current.',
        },
      },
      handler: async (ctx: AppContext, { params, body }) => {
        await requireRight(ctx, 'managePassports', 'author passports');
        const level = await ownLevel(ctx, params.dppId);
        if (level) {
          return putLevelContent(ctx, level, { specificationId: params.specId, data: body }, deps);
        }
        const workflows = requireWorkflows(deps.workflows);
        const ref = await ownPassport(ctx, params.dppId);
        const em = ctx.state.em!;
        const writer = await contentWriterOf(ctx, em, ref, ['operator']);
        const ifMatch = ctx.get('If-Match') || undefined;
        let result: Awaited<ReturnType<typeof replacePassportContent>>;
        try {
          result = await replacePassportContent(
            em,
            contentSpecifications,
            ref,
            { specificationId: params.specId, data: body, ...(ifMatch === undefined ? {} : { ifMatch }) },
            writer,
            deps.config.publicBaseUrl,
          );
        } catch (error) {
          throw contentWriteProblem(error);
        }
        const { content, created, change } = result;
        if (change) {
          await anchorProductDataEvents(ctx, workflows, [
            { scope: change.passportScope, eventId: change.event.id, tokenId: ref.tokenId },
          ]);
        }
        ctx.status = created ? 201 : 200;
        ctx.set('ETag', result.etag);
        ctx.body = {
          digitalProductPassportId: dppIdOf(ref.serviceUid),
          contentSpecificationId: content.specificationId,
          data: content.data,
          createdAt: content.createdAt.toISOString(),
          updatedAt: content.updatedAt.toISOString(),
          version: versionSummary(result.version),
          event: change ? eventSummary(change.event) : null,
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/dpps/:dppId/content/:specId',
      operationId: 'getDppContent',
      summary:
        'Read a passport’s product-group data as your roles disclose it (?format=aas: its AAS environment).',
      description:
        'Anyone may call it; what is served depends on who calls (docs/disclosure.md): every field whose ' +
        'policy names one of the caller’s roles, nothing else. No credential: the public fields. The owning ' +
        'company (API key, OAuth token, user token): everything. Another company’s credential: the roles the ' +
        'brand granted it (POST /v1/disclosure-grants) and authority when the platform’s register lists it. ' +
        'The SUN parameters of a fresh tap of the passport’s chip in the query (picc_data & cmac, or e & c, as ' +
        'the chip’s URL carries them) add customer for this request; a tap whose read counter was seen before ' +
        'adds nothing (`tap` says replayed). `roles` lists the roles the answer was cut for. The version ' +
        'the passport is pinned to wins over the one the path names (same group). ?format=aas answers the ' +
        'passport’s AAS v3 environment with the product group’s submodels (for batteries IDTA-02035 Battery ' +
        'Nameplate, Technical Data, Product Condition, Circularity, IDTA-02023 Carbon Footprint) holding only ' +
        'the elements the caller may read; a submodel with nothing readable is left out. Environment: ' +
        'x-service-env when sent, else live; /test/v1/… for test passports.',
      tags: ['dpps'],
      auth: 'none',
      optionalCredential: true,
      environmentHeader: false,
      params: contentParams,
      query: z
        .looseObject({ format: z.enum(['json', 'aas']).default('json') })
        .describe('format, and the SUN parameters of a tap (picc_data, cmac, enc, or e, c).'),
      responses: {
        200: {
          description:
            'The data the caller may read (JSON: a strong ETag over the data served; the owner’s is the one ' +
            'PUT takes as If-Match), or the AAS environment.',
          schema: z.union([
            contentBody.extend({
              sources: z
                .record(z.string(), z.string())
                .optional()
                .describe(
                  'When the item inherits: each leaf’s JSON pointer into data → the dppId it comes from.',
                ),
              roles: z.array(z.enum(ROLES)),
              tap: z.enum(['authentic', 'replayed', 'forged', 'unverifiable']).optional(),
            }),
            z.record(z.string(), z.unknown()),
          ]),
        },
        401: { description: 'unauthorized: a credential was sent and is not valid.' },
        404: { description: 'dpp_not_found, content_specification_not_found, content_not_found.' },
      },
      handler: async (ctx: AppContext, { params, query }) => {
        const environment = publicEnvironment(ctx);
        ctx.set('Vary', 'Authorization, x-service-env');
        ctx.set('Cache-Control', 'no-store');
        const spec = requireSpecification(contentSpecifications, params.specId);
        const em = deps.orm.em.fork();
        const level = await findLevelById(em, environment, params.dppId);
        const ref = level ? undefined : await findDppById(em, environment, params.dppId);
        const companyId = level?.companyId ?? ref!.companyId;
        const serviceUid = level?.serviceUid ?? ref!.serviceUid;
        if (!ctx.state.principal) allowAnyOrigin(ctx);
        // An item's data merged over its model's and batch's (docs/granularity.md).
        const content = level
          ? await levelContentView(em, level, spec.group)
          : await itemContentView(em, { passportId: ref!.passportId, serviceUid }, spec.group);
        if (!content) {
          throw new DomainError(
            'not_found',
            'content_not_found',
            `No ${spec.group} data was written for this passport.`,
          );
        }
        const caller = await callerRoles(
          ctx,
          { em, secretBox: deps.secretBox },
          { companyId, environment, ...(ref ? { passportId: ref.passportId } : {}) },
        );
        if (query.format === 'aas') {
          if (!ref) {
            throw new DomainError(
              'invalid',
              'format_not_available',
              'format=aas is served for item passports; read a model or batch passport as JSON.',
            );
          }
          ctx.body = await passportAasEnvironment(em, ref, deps.config.publicBaseUrl, caller.roles);
          return;
        }
        const pinned = contentSpecifications.get(content.specificationId);
        const data = caller.owner
          ? content.data
          : discloseContent(content.data, pinned?.policy ?? {}, caller.roles);
        // Over the data served, except the owner's: the item's own stored data's, the one a PUT's If-Match names.
        const own = caller.owner ? content.own : undefined;
        ctx.set(
          'ETag',
          own ? contentEtag(own.specificationId, own.data) : contentEtag(content.specificationId, data),
        );
        ctx.body = {
          digitalProductPassportId: dppIdOf(serviceUid),
          contentSpecificationId: content.specificationId,
          data,
          ...(content.sources ? { sources: sourcesOf(data, content.sources) } : {}),
          createdAt: content.createdAt.toISOString(),
          updatedAt: content.updatedAt.toISOString(),
          roles: ROLES.filter((role) => caller.roles.has(role)),
          ...(caller.tap ? { tap: caller.tap } : {}),
        };
      },
    }),
  ];
}
