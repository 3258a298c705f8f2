import { z } from 'zod';
import { requireWorkflows } from '../../../src/adapters/temporal/start.ts';
import { linkRepurposedPassport } from '../../../src/lifecycle/repurpose/repurpose.ts';
import { startAnchor } from '../../../src/lifecycle/supply-chain/anchor-event.ts';
import { contentSpecifications } from '../../../src/passport/content/content-specification.ts';
import type { ContentWriter } from '../../../src/passport/content/content-writer.ts';
import {
  type DynamicUpdateResult,
  recordDynamicUpdate,
} from '../../../src/passport/content/dynamic-update.ts';
import { ContentInvalid, requireSpecification } from '../../../src/passport/content/passport-content.ts';
import { PRODUCT_DATA_UPDATED } from '../../../src/passport/content/product-data-change.ts';
import { type DppRef, findDppById } from '../../../src/passport/dpp-api/find-dpp.ts';
import { dppIdOf } from '../../../src/passport/record/passport-header.ts';
import { SupplyChainEvent } from '../../../src/platform/db/entities/index.ts';
import { scopedEntityManager, type TenantScope } from '../../../src/platform/db/tenant-scope.ts';
import { DomainError } from '../../../src/platform/errors.ts';
import type { AppContext } from '../../context.ts';
import { IDEMPOTENCY_DOC, respondIdempotently } from '../../idempotency.ts';
import { defineRoute } from '../../route.ts';
import type { RouteDeps } from '../deps.ts';
import { contentInvalidProblem } from './content-problem.ts';
import { contentWriterOf } from './dynamic-writer.ts';
import {
  anchorProductDataEvents,
  eventSummary,
  productDataEventView,
  versionSummary,
  versionView,
} from './product-data-event.ts';

// Dynamic product-group data (issue 25 item 3, docs/battery-passport.md "Dynamic data"): state of health,
// status and use events appended by the brand or a granted repairer, each a new passport version whose
// PRODUCT_DATA_UPDATED event is anchored on chain by the supply-chain anchor workflow.

const params = z.object({
  dppId: z.string().min(1).max(200).describe('The digitalProductPassportId (urn:uuid:…) or its UUID.'),
  specId: z
    .string()
    .min(1)
    .max(200)
    .describe(
      'The pinned content specification id, e.g. urn:dpp-service:spec:battery:1.0.0 (percent-encoded).',
    ),
});

const WRITER_ROLES = ['operator', 'repairer', 'recycler'] as const;
const updateView = z.object({
  digitalProductPassportId: z.string(),
  contentSpecificationId: z.string(),
  changedFields: z.array(z.string()).describe('JSON pointers into the data that this update changed.'),
  writerRole: z.enum(WRITER_ROLES),
  version: versionView,
  event: productDataEventView,
});

const UPDATE_DESCRIPTION =
  'Appends the battery’s dynamic data to the passport’s product-group data: `batteryStatus` (original, ' +
  'repurposed, reused, remanufactured, waste; waste is final, nothing returns to original), `batteryCondition` ' +
  '(measured values with their `measuredAt`, merged over the previous ones), `negativeEvents` and ' +
  '`accidentReports` (appended). Each member is validated against the pinned specification: 400 ' +
  'content_invalid names every offending member by JSON pointer into this body. Allowed for the brand and for ' +
  'companies the brand granted `repairer` or `recycler` (others: 404, as if the passport were not theirs to ' +
  'see). Waste is declared by the brand or a recycler, never a repairer (403 waste_declaration_forbidden); a ' +
  'recycler writes only `{"batteryStatus": "waste"}` (403 writer_role_forbidden). Each update ' +
  'is a new passport version (GET /v1/dpps/{dppId}/versions keeps the earlier values) and a PRODUCT_DATA_UPDATED ' +
  'supply-chain event anchored on chain (its dataHash commits to the SHA-256 of the new data); follow it on ' +
  'GET …/dynamic/{eventId}.' +
  IDEMPOTENCY_DOC;

const RELATIONS = ['repurposed', 'remanufactured'] as const;
const repurposeBody = z.object({
  successorDppId: z
    .string()
    .min(1)
    .max(200)
    .describe('The new battery’s passport (yours, its battery data written), urn:uuid:… or the UUID.'),
  relation: z.enum(RELATIONS).default('repurposed'),
});
const linkedView = z.object({
  digitalProductPassportId: z.string(),
  version: versionView,
  event: productDataEventView,
});

const REPURPOSE_DESCRIPTION =
  'A repurposed or remanufactured battery gets a new passport linked to the original’s (Regulation (EU) ' +
  '2023/1542 Art. 77(6)). The repurposer mints the new battery’s passport (its own company), writes its battery ' +
  'data (PUT …/content/{specId}), then calls this on the ORIGINAL passport with `successorDppId`. Allowed for ' +
  'the original’s brand and companies it granted `repairer`. In one step: the link (the original’s public ' +
  'section lists `relatedPassports` `repurposedAs`/`remanufacturedAs`, the new one’s `repurposedFrom`/' +
  '`remanufacturedFrom`; both linksets link the other passport), both batteries’ `batteryStatus` set to the ' +
  'relation, each a new version with an anchored PRODUCT_DATA_UPDATED event.' +
  IDEMPOTENCY_DOC;

/** The body is `{"batteryStatus": "waste"}` alone: the one write a recycler makes. */
const declaresWasteOnly = (body: Record<string, unknown>) =>
  Object.keys(body).length === 1 && body.batteryStatus === 'waste';

export function dppDynamicRoutes(deps: RouteDeps) {
  return [
    defineRoute({
      method: 'post',
      path: '/v1/dpps/:dppId/content/:specId/dynamic',
      operationId: 'appendDppDynamicData',
      summary:
        'Append dynamic product-group data (battery state of health, status, use events): a new version.',
      description: UPDATE_DESCRIPTION,
      tags: ['dpps'],
      auth: 'apiKey',
      idempotent: true,
      params,
      body: z.record(z.string(), z.unknown()),
      responses: {
        201: { description: 'Recorded; the event is being anchored on chain.', schema: updateView },
        400: { description: 'content_invalid (errors[] names each member of the body), invalid_dpp_id.' },
        403: {
          description:
            'waste_declaration_forbidden (a repairer declaring waste), writer_role_forbidden (a recycler writing more than the status waste).',
        },
        404: {
          description:
            'dpp_not_found (or a passport the caller may not write), content_not_found, content_specification_not_found.',
        },
        409: {
          description:
            'content_specification_pinned, battery_status_final, token_recycled, passport_revoked.',
        },
      },
      handler: async (ctx: AppContext, { params: path, body }) => {
        const workflows = requireWorkflows(deps.workflows);
        const em = ctx.state.em!;
        const ref = await findDppById(em, ctx.state.scope!.environment, path.dppId);
        const writer = await contentWriterOf(ctx, em, ref, WRITER_ROLES, declaresWasteOnly(body));
        let started:
          | { scope: { companyId: string; environment: typeof ref.environment }; eventId: number }
          | undefined;
        await respondIdempotently(
          ctx,
          async (tx) => {
            try {
              const result = await recordDynamicUpdate(
                tx,
                contentSpecifications,
                ref,
                path.specId,
                body,
                writer,
                deps.config.publicBaseUrl,
              );
              started = { scope: result.passportScope, eventId: result.event.id };
              return {
                status: 201,
                body: {
                  digitalProductPassportId: dppIdOf(ref.serviceUid),
                  contentSpecificationId: result.specificationId,
                  changedFields: result.changed,
                  writerRole: writer.role,
                  version: versionSummary(result.version),
                  event: eventSummary(result.event),
                },
              };
            } catch (error) {
              if (!(error instanceof ContentInvalid)) throw error;
              throw contentInvalidProblem(error);
            }
          },
          { atomic: true },
        );
        // After the commit (and on a replay too: a running or finished anchor is joined, never repeated).
        const eventId = started?.eventId ?? (ctx.body as { event: { id: number } }).event.id;
        const scope = started?.scope ?? { companyId: ref.companyId, environment: ref.environment };
        await anchorProductDataEvents(ctx, workflows, [{ scope, eventId, tokenId: ref.tokenId }]);
        ctx.set(
          'Location',
          `/v1/dpps/${encodeURIComponent(dppIdOf(ref.serviceUid))}/content/${encodeURIComponent(path.specId)}/dynamic/${eventId}`,
        );
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/dpps/:dppId/content/:specId/repurpose',
      operationId: 'linkRepurposedDpp',
      summary: 'Link a repurposed or remanufactured battery’s new passport to the original’s (both ways).',
      description: REPURPOSE_DESCRIPTION,
      tags: ['dpps'],
      auth: 'apiKey',
      idempotent: true,
      params,
      body: repurposeBody,
      responses: {
        201: {
          description: 'Linked; both status changes are being anchored on chain.',
          schema: z.object({ relation: z.enum(RELATIONS), original: linkedView, successor: linkedView }),
        },
        400: { description: 'invalid_successor (the same passport), invalid_dpp_id.' },
        404: {
          description:
            'dpp_not_found (the original, or one the caller may not write), successor_not_found (not the caller’s), content_not_found.',
        },
        409: { description: 'passports_already_linked, battery_status_final (a waste battery).' },
      },
      handler: async (ctx: AppContext, { params: path, body }) => {
        const workflows = requireWorkflows(deps.workflows);
        const em = ctx.state.em!;
        const scope = ctx.state.scope!;
        const original = await findDppById(em, scope.environment, path.dppId);
        const originalWriter = await contentWriterOf(ctx, em, original, ['operator', 'repairer']);
        const successor = await findDppById(em, scope.environment, body.successorDppId).catch(
          () => undefined,
        );
        if (!successor || successor.companyId !== scope.companyId) {
          throw new DomainError(
            'not_found',
            'successor_not_found',
            'successorDppId names no passport of your company (mint the new battery’s passport first).',
          );
        }
        const successorWriter: ContentWriter = { ...originalWriter, role: 'operator' };
        const anchors: { scope: TenantScope; eventId: number; tokenId: string }[] = [];
        await respondIdempotently(
          ctx,
          async (tx) => {
            const result = await linkRepurposedPassport(
              tx,
              contentSpecifications,
              {
                original,
                successor,
                specificationId: path.specId,
                relation: body.relation,
                linkedBy: scope.companyId,
              },
              { original: originalWriter, successor: successorWriter },
              deps.config.publicBaseUrl,
            );
            const view = (ref: DppRef, update: DynamicUpdateResult) => {
              anchors.push({ scope: update.passportScope, eventId: update.event.id, tokenId: ref.tokenId });
              return {
                digitalProductPassportId: dppIdOf(ref.serviceUid),
                version: versionSummary(update.version),
                event: eventSummary(update.event),
              };
            };
            return {
              status: 201,
              body: {
                relation: body.relation,
                original: view(original, result.original),
                successor: view(successor, result.successor),
              },
            };
          },
          { atomic: true },
        );
        if (anchors.length === 0) {
          // A replay: the stored answer names the events; their anchors are joined (or finished already).
          const answer = ctx.body as {
            original: { event: { id: number } };
            successor: { event: { id: number } };
          };
          anchors.push(
            {
              scope: { companyId: original.companyId, environment: original.environment },
              eventId: answer.original.event.id,
              tokenId: original.tokenId,
            },
            {
              scope: { companyId: successor.companyId, environment: successor.environment },
              eventId: answer.successor.event.id,
              tokenId: successor.tokenId,
            },
          );
        }
        await anchorProductDataEvents(ctx, workflows, anchors);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/dpps/:dppId/content/:specId/dynamic/:eventId',
      operationId: 'getDppDynamicUpdate',
      summary: 'One dynamic data update: its event and chain anchor (the brand and the writing company).',
      description:
        'The PRODUCT_DATA_UPDATED event of an update with its anchor (transactionHash and blockNumber once ' +
        'mined). An update whose anchor is not recorded yet has its anchor workflow started again (joined when ' +
        'running). Readable by the brand and by the company that wrote it; others: 404.',
      tags: ['dpps'],
      auth: 'apiKey',
      params: params.extend({ eventId: z.coerce.number().int().min(1).max(2_147_483_647) }),
      responses: {
        200: { description: 'The update.', schema: updateView.omit({ version: true, changedFields: true }) },
        404: { description: 'dpp_not_found, update_not_found.' },
      },
      handler: async (ctx: AppContext, { params: path }) => {
        const em = ctx.state.em!;
        const scope = ctx.state.scope!;
        const spec = requireSpecification(contentSpecifications, path.specId);
        const ref = await findDppById(em, scope.environment, path.dppId);
        const [row] = await em.execute<{ id: number }[]>(
          `select id from supply_chain_events where id = ? and company_id = ? and environment = ? and token_id = ?
             and action = ? and metadata->>'contentSpecificationId' = ?
             and (company_id = ? or metadata->>'writerCompanyId' = ?)`,
          [
            path.eventId,
            ref.companyId,
            ref.environment,
            ref.tokenId,
            PRODUCT_DATA_UPDATED,
            spec.id,
            scope.companyId,
            scope.companyId,
          ],
        );
        if (!row)
          throw new DomainError('not_found', 'update_not_found', `No update ${path.eventId} of yours.`);
        const owners = scopedEntityManager(em, { companyId: ref.companyId, environment: ref.environment });
        const event = await owners.findOneOrFail(SupplyChainEvent, { id: row.id });
        if (!event.transactionHash && deps.workflows) {
          await startAnchor(
            deps.workflows,
            { companyId: ref.companyId, environment: ref.environment },
            { id: event.id, tokenId: ref.tokenId, action: PRODUCT_DATA_UPDATED },
          ).catch((error: unknown) =>
            ctx.state.log.error({ err: error, eventId: event.id }, 'anchor not started'),
          );
        }
        const metadata = event.metadata as { writerRole?: (typeof WRITER_ROLES)[number] };
        ctx.body = {
          digitalProductPassportId: dppIdOf(ref.serviceUid),
          contentSpecificationId: spec.id,
          writerRole: metadata.writerRole ?? 'operator',
          event: eventSummary(event),
        };
      },
    }),
  ];
}
