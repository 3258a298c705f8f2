import { z } from 'zod';
import { requireWorkflows } from '../../../src/adapters/temporal/start.ts';
import { changeDppStatus, DPP_STATUS_CHANGED } from '../../../src/lifecycle/archive/change-status.ts';
import { retentionAnswer } from '../../../src/lifecycle/archive/retention.ts';
import { startAnchor } from '../../../src/lifecycle/supply-chain/anchor-event.ts';
import { contentSpecifications } from '../../../src/passport/content/content-specification.ts';
import { mergePatch, rewriteContent, withElement } from '../../../src/passport/content/element-write.ts';
import {
  type ContentWriteResult,
  replacePassportContent,
} from '../../../src/passport/content/put-content.ts';
import type { DppRef } from '../../../src/passport/dpp-api/find-dpp.ts';
import { STATUS_ACTIONS } from '../../../src/passport/record/dpp-status-rule.ts';
import { dppIdOf } from '../../../src/passport/record/passport-header.ts';
import type { PassportVersion } from '../../../src/passport/record/passport-versions.ts';
import { DomainError } from '../../../src/platform/errors.ts';
import type { AppContext } from '../../context.ts';
import { Problem } from '../../problem.ts';
import { defineRoute } from '../../route.ts';
import type { RouteDeps } from '../deps.ts';
import { contentWriteProblem } from './content-write-problem.ts';
import { ifMatchFor, sectionsOf } from './document-sections.ts';
import { ownPassport } from './dpp-content.ts';
import { contentWriterOf } from './dynamic-writer.ts';
import { writableElement } from './element-target.ts';
import {
  changeLevelStatusRoute,
  ownLevel,
  writeLevelDocument,
  writeLevelElement,
} from './level-lifecycle.ts';
import { anchorProductDataEvents, eventSummary, versionSummary, versionView } from './product-data-event.ts';

// EN 18222 life-cycle writes on the BaSyx DPP API paths (docs/en18222.md, "Writes"): update whole, by merge patch
// and by element, each through the one content write path (put-content.ts); status changes; a DELETE that never
// deletes. The owning company's API key only.

const dppIdParam = z
  .string()
  .min(1)
  .max(200)
  .describe('The digitalProductPassportId (urn:uuid:…) or its UUID.');

const addressedVersion = versionView.extend({
  address: z.string().describe('The version’s permanent address (GET, served as recorded).'),
});
const sectionWritten = z.object({
  contentSpecificationId: z.string(),
  created: z.boolean(),
  etag: z.string(),
  event: z.object({ id: z.number().int(), dataHash: z.string() }).nullable(),
});
const documentWritten = z.object({
  digitalProductPassportId: z.string(),
  sections: z.array(sectionWritten),
  ignored: z
    .array(z.string())
    .describe('Members not written: header members and the service’s own sections.'),
  version: addressedVersion.nullable(),
});

const WRITE_ERRORS = {
  400: {
    description: 'content_invalid, invalid_element_path, no_product_group_section, if_match_ambiguous.',
  },
  404: {
    description: 'dpp_not_found (or another company’s), content_specification_not_found, element_not_found.',
  },
  409: {
    description:
      'dpp_archived, dpp_suspended, passport_revoked, token_recycled, battery_status_final, content_specification_pinned.',
  },
  412: { description: 'precondition_failed: If-Match does not name the section’s current data.' },
};

async function writeOrProblem(write: () => Promise<ContentWriteResult>): Promise<ContentWriteResult> {
  try {
    return await write();
  } catch (error) {
    throw contentWriteProblem(error);
  }
}

/** A version's summary with its permanent address (GET …/versions/{number}, served as recorded for good). */
const addressed = (ref: DppRef, version: PassportVersion) => ({
  ...versionSummary(version),
  address: `/v1/dpps/${encodeURIComponent(dppIdOf(ref.serviceUid))}/versions/${version.number}`,
});

export function dppLifecycleRoutes(deps: RouteDeps) {
  /** Writes each section, anchors the changes and answers the document write. */
  async function answerSections(
    ctx: AppContext,
    ref: DppRef,
    results: ContentWriteResult[],
    ignored: string[],
  ): Promise<void> {
    const changes = results.flatMap((r) => (r.change ? [r.change] : []));
    await anchorProductDataEvents(
      ctx,
      requireWorkflows(deps.workflows),
      changes.map((c) => ({ scope: c.passportScope, eventId: c.event.id, tokenId: ref.tokenId })),
    );
    if (results.length === 1) ctx.set('ETag', results[0]!.etag);
    const last = results[results.length - 1];
    ctx.body = {
      digitalProductPassportId: dppIdOf(ref.serviceUid),
      sections: results.map((r) => ({
        contentSpecificationId: r.content.specificationId,
        created: r.created,
        etag: r.etag,
        event: r.change ? { id: r.change.event.id, dataHash: eventSummary(r.change.event).dataHash } : null,
      })),
      ignored,
      version: last ? addressed(ref, last.version) : null,
    };
  }

  const writeContext = async (ctx: AppContext, dppId: string) => {
    requireWorkflows(deps.workflows);
    const ref = await ownPassport(ctx, dppId);
    const em = ctx.state.em!;
    return { ref, em, writer: await contentWriterOf(ctx, em, ref, ['operator']) };
  };

  type WriteTarget = Awaited<ReturnType<typeof writeContext>>;

  /** A document write: each product-group section of the body written by `write`, then the answer. */
  async function writeSections(
    ctx: AppContext,
    dppId: string,
    body: Record<string, unknown>,
    write: (
      target: WriteTarget,
      specificationId: string,
      value: unknown,
      ifMatch: string | undefined,
    ) => Promise<ContentWriteResult>,
  ): Promise<void> {
    const target = await writeContext(ctx, dppId);
    const { sections, ignored } = sectionsOf(body);
    const ifMatch = ifMatchFor(ctx, sections.length);
    const results: ContentWriteResult[] = [];
    for (const [specificationId, value] of sections) {
      results.push(await writeOrProblem(() => write(target, specificationId, value, ifMatch)));
    }
    await answerSections(ctx, target.ref, results, ignored);
  }

  return [
    defineRoute({
      method: 'put',
      path: '/v1/dpps/:dppId',
      operationId: 'replaceDpp',
      summary: 'EN 18222 update (whole): replace the passport’s product-group data, section by section.',
      description:
        'The body is a compressed DPP document (as GET /v1/dpps/{dppId} answers it). Each product-group ' +
        'section (member keyed urn:dpp-service:spec:…) replaces that data exactly as PUT ' +
        '/v1/dpps/{dppId}/content/{specId} does (pin, schema, the group’s rules, status rules, an anchored ' +
        'PRODUCT_DATA_UPDATED event and a new version per changed section). Header members and the service’s own ' +
        'sections are not written here (they follow from minting, events and status changes) and are listed in ' +
        '`ignored`. If-Match (the section’s ETag) with one section only. Status changes: POST …/status.',
      tags: ['dpps'],
      auth: 'apiKey',
      params: z.object({ dppId: dppIdParam }),
      body: z.record(z.string(), z.unknown()),
      responses: { 200: { description: 'Written.', schema: documentWritten }, ...WRITE_ERRORS },
      handler: async (ctx: AppContext, { params, body }) => {
        const level = await ownLevel(ctx, params.dppId);
        if (level) return writeLevelDocument(ctx, level, body, 'replace', deps);
        await writeSections(ctx, params.dppId, body, (target, specificationId, data, ifMatch) =>
          replacePassportContent(
            target.em,
            contentSpecifications,
            target.ref,
            { specificationId, data, ...(ifMatch === undefined ? {} : { ifMatch }) },
            target.writer,
            deps.config.publicBaseUrl,
          ),
        );
      },
    }),
    defineRoute({
      method: 'patch',
      path: '/v1/dpps/:dppId',
      operationId: 'updateDpp',
      summary:
        'EN 18222 update (BaSyx updateDPPById): a JSON Merge Patch (RFC 7396) of the compressed document.',
      description:
        'Each product-group section in the patch is merged into that section’s stored data (null removes a ' +
        'member) and written through the same path as PUT (rules, status, anchoring, version). Other members: ' +
        '`ignored`. If-Match (the section’s ETag) with one section only; without it the patch applies to the ' +
        'data as stored when it is written (a concurrent change is never lost).',
      tags: ['dpps'],
      auth: 'apiKey',
      params: z.object({ dppId: dppIdParam }),
      body: z.record(z.string(), z.unknown()),
      responses: { 200: { description: 'Written.', schema: documentWritten }, ...WRITE_ERRORS },
      handler: async (ctx: AppContext, { params, body }) => {
        const level = await ownLevel(ctx, params.dppId);
        if (level) return writeLevelDocument(ctx, level, body, 'merge', deps);
        await writeSections(ctx, params.dppId, body, (target, specificationId, patch, ifMatch) =>
          rewriteContent(
            target.em,
            contentSpecifications,
            target.ref,
            {
              specificationId,
              change: (stored) => mergePatch(stored, patch) as Record<string, unknown>,
              ifMatch,
            },
            target.writer,
            deps.config.publicBaseUrl,
          ),
        );
      },
    }),
    ...(['patch', 'put'] as const).map((method) =>
      defineRoute({
        method,
        path: '/v1/dpps/:dppId/elements/:elementPath',
        operationId: method === 'patch' ? 'updateDataElement' : 'replaceDataElement',
        summary: 'EN 18222 update of one data element (BaSyx updateDataElement) by RFC 9535 normalized path.',
        description:
          "The path names a node inside a product-group section: $['urn:dpp-service:spec:…']['member']…, " +
          'percent-encoded once. The body is the element’s new value (compressed JSON); its parent must exist. ' +
          'Written as the whole section through the same path as PUT …/content/{specId}: schema, the group’s ' +
          'rules, status rules, anchored event, new version; If-Match is the section’s ETag. Answers the ' +
          'element as stored, with the section’s new ETag.',
        tags: ['dpps'],
        auth: 'apiKey',
        params: z.object({ dppId: dppIdParam, elementPath: z.string().min(1).max(4000) }),
        body: z.unknown(),
        responses: { 200: { description: 'The element’s new value.', schema: z.unknown() }, ...WRITE_ERRORS },
        handler: async (ctx: AppContext, { params, body }) => {
          const element = writableElement(params.elementPath);
          const level = await ownLevel(ctx, params.dppId);
          if (level) {
            const target = { ...element, elementPath: params.elementPath };
            return writeLevelElement(ctx, level, target, body, deps);
          }
          const { ref, em, writer } = await writeContext(ctx, params.dppId);
          const result = await writeOrProblem(() =>
            rewriteContent(
              em,
              contentSpecifications,
              ref,
              {
                specificationId: element.specificationId,
                change: (stored) => {
                  const changed = withElement(stored, element.inside, body);
                  if (!changed) {
                    throw new DomainError(
                      'not_found',
                      'element_not_found',
                      `No parent for ${params.elementPath}.`,
                    );
                  }
                  return changed;
                },
                ifMatch: ctx.get('If-Match') || undefined,
              },
              writer,
              deps.config.publicBaseUrl,
            ),
          );
          await answerSections(ctx, ref, [result], []);
          ctx.body = body;
        },
      }),
    ),
    defineRoute({
      method: 'post',
      path: '/v1/dpps/:dppId/status',
      operationId: 'changeDppStatus',
      summary: 'EN 18222 status change: suspend, reactivate, archive, end_of_life (archive is final).',
      description:
        'suspend: active → suspended (reads show dppStatus suspended; data writes 409 dpp_suspended). ' +
        'reactivate: suspended → active (not a revocation: 409 passport_revoked). archive / end_of_life: → ' +
        'archived, final: every version stays readable at least until retainUntil (the product rule, ' +
        'docs/en18222.md "Retention"), writes 409 dpp_archived. Each change is a new version and a ' +
        'DPP_STATUS_CHANGED supply-chain event anchored on chain.',
      tags: ['dpps'],
      auth: 'apiKey',
      params: z.object({ dppId: dppIdParam }),
      body: z.object({ action: z.enum(STATUS_ACTIONS), reason: z.string().max(500).optional() }),
      responses: {
        200: {
          description: 'Changed.',
          schema: z.object({
            digitalProductPassportId: z.string(),
            dppStatus: z.enum(['active', 'suspended', 'archived']),
            previousStatus: z.enum(['active', 'suspended', 'archived']),
            retention: z
              .object({ rule: z.string(), basis: z.string(), retainUntil: z.string().nullable() })
              .optional(),
            version: addressedVersion,
            event: z
              .object({ id: z.number().int(), action: z.literal(DPP_STATUS_CHANGED), dataHash: z.string() })
              .nullable()
              .describe('The anchored DPP_STATUS_CHANGED event; null for a model or batch (no token).'),
          }),
        },
        404: { description: 'dpp_not_found (or another company’s).' },
        409: { description: 'dpp_archived, passport_revoked, dpp_status_transition_refused.' },
      },
      handler: async (ctx: AppContext, { params, body }) => {
        const level = await ownLevel(ctx, params.dppId);
        if (level) return changeLevelStatusRoute(ctx, level, body, deps);
        const { ref, em, writer } = await writeContext(ctx, params.dppId);
        const change = await changeDppStatus(
          em,
          ref,
          { action: body.action, reason: body.reason, actor: writer.companyName },
          deps.config.publicBaseUrl,
        );
        await startAnchor(
          requireWorkflows(deps.workflows),
          { companyId: ref.companyId, environment: ref.environment },
          {
            id: change.event.id,
            tokenId: ref.tokenId,
            action: DPP_STATUS_CHANGED,
          },
        ).catch((error: unknown) =>
          ctx.state.log.error({ err: error, eventId: change.event.id }, 'anchor workflow not started'),
        );
        const { retention } = change;
        ctx.body = {
          digitalProductPassportId: dppIdOf(ref.serviceUid),
          dppStatus: change.to,
          previousStatus: change.from,
          ...retentionAnswer(retention),
          version: addressed(ref, change.version),
          event: { id: change.event.id, action: DPP_STATUS_CHANGED, dataHash: change.event.dataHash ?? '' },
        };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/v1/dpps/:dppId',
      operationId: 'deleteDPPById',
      summary: 'EN 18222 delete: never deletes a published passport (405, archive instead).',
      description:
        'A published passport is evidence: it is never deleted. Answers 405 with Allow and a problem naming the ' +
        'archive (POST /v1/dpps/{dppId}/status {"action":"archive"}); nothing changes. The same for model and batch ' +
        'passports.',
      tags: ['dpps'],
      auth: 'apiKey',
      params: z.object({ dppId: dppIdParam }),
      responses: {
        404: { description: 'dpp_not_found (or another company’s).' },
        405: { description: 'dpp_delete_refused: archive instead (`archive` names the request).' },
      },
      handler: async (ctx: AppContext, { params }) => {
        const dppId = dppIdOf(
          ((await ownLevel(ctx, params.dppId)) ?? (await ownPassport(ctx, params.dppId))).serviceUid,
        );
        const archivePath = `/v1/dpps/${encodeURIComponent(dppId)}/status`;
        throw new Problem(
          405,
          'dpp_delete_refused',
          `A published passport is never deleted; archive it instead: POST ${archivePath} {"action":"archive"}.`,
          {
            headers: { Allow: 'GET, PUT, PATCH' },
            extra: { archive: { method: 'POST', path: archivePath, body: { action: 'archive' } } },
          },
        );
      },
    }),
  ];
}
