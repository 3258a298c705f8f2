import { changeLevelStatus } from '../../../src/lifecycle/archive/change-level-status.ts';
import { retentionAnswer } from '../../../src/lifecycle/archive/retention.ts';
import { contentSpecifications } from '../../../src/passport/content/content-specification.ts';
import { mergePatch, withElement } from '../../../src/passport/content/element-write.ts';
import type { PathSegment } from '../../../src/passport/dpp-api/element-path.ts';
import { startLevelVersionAnchors } from '../../../src/passport/levels/level-anchor.ts';
import { type LevelVersion, latestLevelVersion } from '../../../src/passport/levels/level-versions.ts';
import { findLevelById, type LevelPassport } from '../../../src/passport/levels/levels.ts';
import { type LevelSectionWrite, writeLevelSections } from '../../../src/passport/levels/write-level.ts';
import type { StatusAction } from '../../../src/passport/record/dpp-status-rule.ts';
import { dppIdOf } from '../../../src/passport/record/passport-header.ts';
import { DomainError } from '../../../src/platform/errors.ts';
import type { AppContext } from '../../context.ts';
import type { RouteDeps } from '../deps.ts';
import { contentWriteProblem } from './content-write-problem.ts';
import { ifMatchFor, sectionsOf } from './document-sections.ts';

// EN 18222 life-cycle writes of model and batch passports (docs/granularity.md "Life cycle"): the same paths,
// answers and rules as an item's (dpp-lifecycle.ts), written to the level's tables. A level has no token, so
// no supply-chain event is written: each change is a new level version with its hashes, anchored on chain by
// its own workflow once the write has committed (anchorStatus pending, then anchored).

type Data = Record<string, unknown>;

/** The caller's own model or batch passport a dppId names; undefined when it names none (an item, perhaps). */
export async function ownLevel(ctx: AppContext, dppId: string): Promise<LevelPassport | undefined> {
  const scope = ctx.state.scope!;
  const level = await findLevelById(ctx.state.em!, scope.environment, dppId);
  if (level && level.companyId !== scope.companyId) {
    throw new DomainError('not_found', 'dpp_not_found', `No passport ${dppId}.`);
  }
  return level;
}

const levelAddressed = (level: LevelPassport, version: LevelVersion) => ({
  number: version.number,
  createdAt: version.createdAt.toISOString(),
  publicSha256: version.publicSha256,
  address: `/v1/dpps/${encodeURIComponent(dppIdOf(level.serviceUid))}/versions/${version.number}`,
});

/**
 * After a level's change has committed: the anchors of its pending versions (the new one among them). Never
 * fails the request (the change is done): what does not start here, the worker's sweep starts.
 */
export async function anchorLevelVersions(
  ctx: AppContext,
  deps: RouteDeps,
  level: LevelPassport,
): Promise<void> {
  await startLevelVersionAnchors(
    { em: deps.orm.em.fork(), workflows: deps.workflows, log: ctx.state.log },
    ctx.state.scope!,
    level,
  ).catch((error: unknown) =>
    ctx.state.log.error({ err: error, levelId: level.id }, 'level anchor workflows not started'),
  );
}

/** A level's section writes (write-level.ts), then the anchor of the version they recorded. */
export async function writeLevel(
  ctx: AppContext,
  level: LevelPassport,
  writes: LevelSectionWrite[],
  deps: RouteDeps,
) {
  let result: Awaited<ReturnType<typeof writeLevelSections>>;
  try {
    result = await writeLevelSections(
      ctx.state.em!,
      contentSpecifications,
      ctx.state.scope!,
      level,
      writes,
      deps.config.publicBaseUrl,
    );
  } catch (error) {
    throw contentWriteProblem(error);
  }
  if (result.version) await anchorLevelVersions(ctx, deps, level);
  return result;
}

/** PUT (whole sections) or PATCH (merge patch) of a level's compressed document. */
export async function writeLevelDocument(
  ctx: AppContext,
  level: LevelPassport,
  body: Data,
  mode: 'replace' | 'merge',
  deps: RouteDeps,
): Promise<void> {
  const { sections, ignored } = sectionsOf(body);
  const ifMatch = ifMatchFor(ctx, sections.length);
  const result = await writeLevel(
    ctx,
    level,
    sections.map(([specificationId, value]) => ({
      specificationId,
      ifMatch,
      change: (stored) => (mode === 'replace' ? (value as Data) : (mergePatch(stored ?? {}, value) as Data)),
    })),
    deps,
  );
  if (result.sections.length === 1) ctx.set('ETag', result.sections[0]!.etag);
  ctx.body = {
    digitalProductPassportId: dppIdOf(level.serviceUid),
    sections: result.sections.map((section) => ({
      contentSpecificationId: section.specificationId,
      created: section.created,
      etag: section.etag,
      event: null,
    })),
    ignored,
    version: result.version ? levelAddressed(level, result.version) : null,
  };
}

/** PATCH/PUT of one element inside a level's product-group section. */
export async function writeLevelElement(
  ctx: AppContext,
  level: LevelPassport,
  element: { specificationId: string; inside: PathSegment[]; elementPath: string },
  value: unknown,
  deps: RouteDeps,
): Promise<void> {
  const result = await writeLevel(
    ctx,
    level,
    [
      {
        specificationId: element.specificationId,
        ifMatch: ctx.get('If-Match') || undefined,
        change: (stored) => {
          const changed = stored && withElement(stored, element.inside, value);
          if (!changed) {
            throw new DomainError('not_found', 'element_not_found', `No parent for ${element.elementPath}.`);
          }
          return changed;
        },
      },
    ],
    deps,
  );
  ctx.set('ETag', result.sections[0]!.etag);
  ctx.body = value;
}

/**
 * PUT …/content/{specId} of a level: the section replaced whole, as the level's PUT of its document does (the
 * same function, so the same rules: status, pin, If-Match, partial schema, product group's rules). Answers as an
 * item's content write: 201 when the section is new, the section's ETag, `version` the level's latest (the new
 * one, or the current one when nothing changed), `event: null` (a level has no token).
 */
export async function putLevelContent(
  ctx: AppContext,
  level: LevelPassport,
  request: { specificationId: string; data: Data },
  deps: RouteDeps,
): Promise<void> {
  const result = await writeLevel(
    ctx,
    level,
    [
      {
        specificationId: request.specificationId,
        ifMatch: ctx.get('If-Match') || undefined,
        change: () => request.data,
      },
    ],
    deps,
  );
  const section = result.sections[0]!;
  const version = result.version ?? (await latestLevelVersion(ctx.state.em!, level.id))!;
  ctx.status = section.created ? 201 : 200;
  ctx.set('ETag', section.etag);
  ctx.body = {
    digitalProductPassportId: dppIdOf(level.serviceUid),
    contentSpecificationId: section.specificationId,
    data: section.data,
    createdAt: section.createdAt.toISOString(),
    updatedAt: section.updatedAt.toISOString(),
    version: levelAddressed(level, version),
    event: null,
  };
}

/** POST …/status of a level: the items' rule, retention when archived, a new version (no event). */
export async function changeLevelStatusRoute(
  ctx: AppContext,
  level: LevelPassport,
  request: { action: StatusAction; reason?: string | undefined },
  deps: RouteDeps,
): Promise<void> {
  const change = await changeLevelStatus(
    ctx.state.em!,
    ctx.state.scope!,
    level,
    request,
    deps.config.publicBaseUrl,
  );
  await anchorLevelVersions(ctx, deps, level);
  const { retention } = change;
  ctx.body = {
    digitalProductPassportId: dppIdOf(level.serviceUid),
    dppStatus: change.to,
    previousStatus: change.from,
    ...retentionAnswer(retention),
    version: levelAddressed(level, change.version),
    event: null,
  };
}
