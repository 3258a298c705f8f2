import type { EntityManager } from '@mikro-orm/postgresql';
import type { Environment } from '../../platform/config/config.ts';
import { DomainError } from '../../platform/errors.ts';
import { ContentPreconditionFailed, contentEtag, ifMatchHolds } from '../content/content-etag.ts';
import type { ContentSpecificationRegistry } from '../content/content-specification.ts';
import { requireSpecification } from '../content/passport-content.ts';
import { writeRefusal } from '../record/dpp-status-rule.ts';
import { dppIdOf } from '../record/passport-header.ts';
import { checkLevelSection } from './level-section.ts';
import { type LevelVersion, recordLevelVersion } from './level-versions.ts';
import { LEVEL_COLUMNS, type LevelPassport, type LevelRow, toLevel } from './levels.ts';

type Data = Record<string, unknown>;

/** One section's change: the new data from the stored one (undefined: none yet), under an optional If-Match. */
export interface LevelSectionWrite {
  specificationId: string;
  change: (stored: Data | undefined) => Data;
  ifMatch?: string | undefined;
}

export interface LevelSectionWritten {
  specificationId: string;
  created: boolean;
  etag: string;
  data: Data;
  /** When the section was first written and last changed (the stored row's times). */
  createdAt: Date;
  updatedAt: Date;
}

interface StoredSection {
  specification_id: string;
  data: Data;
  created_at: Date | string;
  updated_at: Date | string;
}

/** The company's level a dppId names, locked for the caller's transaction (404 for none or another's). */
export async function lockOwnLevel(
  tx: EntityManager,
  scope: { companyId: string; environment: Environment },
  level: LevelPassport,
): Promise<LevelPassport> {
  const [row] = await tx.execute<LevelRow[]>(
    `select ${LEVEL_COLUMNS} from dpp_levels where id = ? and company_id = ? and environment = ? for update`,
    [level.id, scope.companyId, scope.environment],
  );
  if (!row) throw new DomainError('not_found', 'dpp_not_found', `No passport ${dppIdOf(level.serviceUid)}.`);
  return toLevel(row);
}

/**
 * Writes sections of a model or batch passport (EN 18222 update: whole, merge patch or element), with the rules
 * of every passport write: the status rule (archived or suspended: refused), the pin (a group follows one
 * specification version), If-Match on the section's ETag (412), the partial schema and the product group's
 * rules (as at create). One transaction; one new version when anything changed.
 */
export async function writeLevelSections(
  em: EntityManager,
  registry: ContentSpecificationRegistry,
  scope: { companyId: string; environment: Environment },
  target: LevelPassport,
  writes: readonly LevelSectionWrite[],
  publicBaseUrl: string,
): Promise<{ sections: LevelSectionWritten[]; version: LevelVersion | null }> {
  return em.transactional(async (tx) => {
    const level = await lockOwnLevel(tx, scope, target);
    const refusal = writeRefusal(level.dppStatus);
    if (refusal) throw refusal;
    const sections: LevelSectionWritten[] = [];
    let changed = false;
    for (const write of writes) {
      const spec = requireSpecification(registry, write.specificationId);
      const [stored] = await tx.execute<StoredSection[]>(
        `select specification_id, data, created_at, updated_at from dpp_level_content
         where level_id = ? and spec_group = ?`,
        [level.id, spec.group],
      );
      if (stored && stored.specification_id !== spec.id) {
        throw new DomainError(
          'conflict',
          'content_specification_pinned',
          `This passport follows ${stored.specification_id} for the ${spec.group} group, not ${spec.id}.`,
        );
      }
      const storedEtag = stored ? contentEtag(stored.specification_id, stored.data) : undefined;
      if (write.ifMatch !== undefined && !ifMatchHolds(write.ifMatch, storedEtag)) {
        throw new ContentPreconditionFailed(storedEtag, undefined);
      }
      const section = checkLevelSection(registry, spec.id, stored?.data, write.change(stored?.data));
      const etag = contentEtag(spec.id, section.data);
      const written = { specificationId: spec.id, created: !stored, etag, data: section.data };
      if (stored && etag === storedEtag) {
        sections.push({
          ...written,
          createdAt: new Date(stored.created_at),
          updatedAt: new Date(stored.updated_at),
        });
        continue;
      }
      changed = true;
      const [times] = await tx.execute<{ created_at: Date | string; updated_at: Date | string }[]>(
        `insert into dpp_level_content (level_id, spec_group, specification_id, data) values (?, ?, ?, ?::jsonb)
         on conflict (level_id, spec_group) do update set data = excluded.data, updated_at = now()
         returning created_at, updated_at`,
        [level.id, spec.group, spec.id, JSON.stringify(section.data)],
      );
      sections.push({
        ...written,
        createdAt: new Date(times!.created_at),
        updatedAt: new Date(times!.updated_at),
      });
    }
    if (!changed) return { sections, version: null };
    await tx.execute('update dpp_levels set updated_at = now() where id = ?', [level.id]);
    return { sections, version: await recordLevelVersion(tx, level, publicBaseUrl) };
  });
}
