import { changeLevelStatus } from '../../../src/lifecycle/archive/change-level-status.ts';
import { retentionAnswer } from '../../../src/lifecycle/archive/retention.ts';
import { contentSpecifications } from '../../../src/passport/content/content-specification.ts';
import { mergePatch, withElement } from '../../../src/passport/content/element-write.ts';
import type { PathSegment } from '../../../src/passport/dpp-api/element-path.ts';
import type { LevelVersion } from '../../../src/passport/levels/level-versions.ts';
import { findLevelById, type LevelPassport } from '../../../src/passport/levels/levels.ts';
import { type LevelSectionWrite, writeLevelSections } from '../../../src/passport/levels/write-level.ts';
import type { StatusAction } from '../../../src/passport/record/dpp-status-rule.ts';
import { dppIdOf } from '../../../src/passport/record/passport-header.ts';
import { DomainError } from '../../../src/platform/errors.ts';
import type { AppContext } from '../../context.ts';
import { contentWriteProblem } from './content-write-problem.ts';
import { ifMatchFor, sectionsOf } from './document-sections.ts';

// EN 18222 life-cycle writes of model and batch passports (docs/granularity.md "Life cycle"): the same paths,
// answers and rules as an item's (dpp-lifecycle.ts), written to the level's tables. A level has no token, so
// no supply-chain event is anchored: each change is a new level version with its hashes (anchorStatus pending).

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

async function write(
  ctx: AppContext,
  level: LevelPassport,
  writes: LevelSectionWrite[],
  publicBaseUrl: string,
) {
  try {
    return await writeLevelSections(
      ctx.state.em!,
      contentSpecifications,
      ctx.state.scope!,
      level,
      writes,
      publicBaseUrl,
    );
  } catch (error) {
    throw contentWriteProblem(error);
  }
}

/** PUT (whole sections) or PATCH (merge patch) of a level's compressed document. */
export async function writeLevelDocument(
  ctx: AppContext,
  level: LevelPassport,
  body: Data,
  mode: 'replace' | 'merge',
  publicBaseUrl: string,
): Promise<void> {
  const { sections, ignored } = sectionsOf(body);
  const ifMatch = ifMatchFor(ctx, sections.length);
  const result = await write(
    ctx,
    level,
    sections.map(([specificationId, value]) => ({
      specificationId,
      ifMatch,
      change: (stored) => (mode === 'replace' ? (value as Data) : (mergePatch(stored ?? {}, value) as Data)),
    })),
    publicBaseUrl,
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
  publicBaseUrl: string,
): Promise<void> {
  const result = await write(
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
    publicBaseUrl,
  );
  ctx.set('ETag', result.sections[0]!.etag);
  ctx.body = value;
}

/** POST …/status of a level: the items' rule, retention when archived, a new version (no event). */
export async function changeLevelStatusRoute(
  ctx: AppContext,
  level: LevelPassport,
  request: { action: StatusAction; reason?: string | undefined },
  publicBaseUrl: string,
): Promise<void> {
  const change = await changeLevelStatus(ctx.state.em!, ctx.state.scope!, level, request, publicBaseUrl);
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
