import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Environment } from '../../platform/config/config.ts';
import { DomainError } from '../../platform/errors.ts';
import { normalizeGtin } from '../../standards/gs1/gtin.ts';
import { isAi82Value } from '../../standards/gs1/qualifiers.ts';
import type { ContentSpecificationRegistry } from '../content/content-specification.ts';
import { dppIdOf } from '../record/passport-header.ts';
import { checkLevelSection } from './level-section.ts';
import { type LevelVersion, recordLevelVersion } from './level-versions.ts';
import { LEVEL_COLUMNS, type LevelPassport, type LevelRow, toLevel } from './levels.ts';

export interface CreateLevelInput {
  granularity: 'model' | 'batch';
  gtin: string;
  lot?: string | undefined;
  /** Product-group data by content specification id (`urn:dpp-service:spec:battery:1.0.0`). */
  sections: Record<string, unknown>;
}

type Data = Record<string, unknown>;

function checkKey(input: CreateLevelInput): { gtin: string; lot: string | null } {
  const gtin = normalizeGtin(input.gtin);
  if (!gtin) {
    throw new DomainError(
      'invalid',
      'invalid_gtin',
      'gtin is a GTIN-8, -12, -13 or -14 whose last digit is its GS1 check digit.',
    );
  }
  if (input.granularity === 'model') {
    if (input.lot !== undefined) {
      throw new DomainError(
        'invalid',
        'lot_not_allowed',
        'A model passport has no lot; use granularity batch.',
      );
    }
    return { gtin, lot: null };
  }
  if (input.lot === undefined || !isAi82Value(input.lot)) {
    throw new DomainError(
      'invalid',
      'invalid_lot',
      'A batch passport needs `lot`: 1–20 characters of GS1 character set 82 (AI 10).',
    );
  }
  return { gtin, lot: input.lot };
}

/** Each section checked against its specification and the product group's rules (the first write's). */
function checkSections(registry: ContentSpecificationRegistry, sections: Data) {
  const checked: { id: string; group: string; data: Data }[] = [];
  for (const [specificationId, data] of Object.entries(sections)) {
    const section = checkLevelSection(registry, specificationId, undefined, data);
    if (checked.some((other) => other.group === section.group)) {
      throw new DomainError(
        'invalid',
        'content_specification_pinned',
        `Two sections of the ${section.group} group: a passport follows one version of a product group.`,
      );
    }
    checked.push(section);
  }
  return checked;
}

/**
 * Creates a model or batch passport of the company (docs/granularity.md) with its product-group data, and
 * records its first version. The key (environment, GTIN[, lot]) is one passport: taken by this company, 409
 * dpp_exists naming it; by another, 409 dpp_key_taken (naming nothing of the other company's).
 */
export async function createLevelPassport(
  em: EntityManager,
  registry: ContentSpecificationRegistry,
  scope: { companyId: string; environment: Environment },
  input: CreateLevelInput,
  publicBaseUrl: string,
): Promise<{ level: LevelPassport; version: LevelVersion }> {
  const key = checkKey(input);
  const sections = checkSections(registry, input.sections);
  return em.transactional(async (tx) => {
    const [row] = await tx.execute<LevelRow[]>(
      `insert into dpp_levels (company_id, environment, granularity, gtin, lot, service_uid)
       values (?, ?, ?, ?, ?, ?) on conflict (environment, gtin, (coalesce(lot, ''))) do nothing
       returning ${LEVEL_COLUMNS}`,
      [scope.companyId, scope.environment, input.granularity, key.gtin, key.lot, randomUUID()],
    );
    if (!row) throw await keyTaken(tx, scope, key);
    const level = toLevel(row);
    for (const section of sections) {
      await tx.execute(
        `insert into dpp_level_content (level_id, spec_group, specification_id, data) values (?, ?, ?, ?::jsonb)`,
        [level.id, section.group, section.id, JSON.stringify(section.data)],
      );
    }
    return { level, version: await recordLevelVersion(tx, level, publicBaseUrl) };
  });
}

async function keyTaken(
  tx: EntityManager,
  scope: { companyId: string; environment: Environment },
  key: { gtin: string; lot: string | null },
): Promise<DomainError> {
  const [existing] = await tx.execute<{ company_id: string; service_uid: string; granularity: string }[]>(
    `select company_id, service_uid, granularity from dpp_levels
     where environment = ? and gtin = ? and coalesce(lot, '') = ?`,
    [scope.environment, key.gtin, key.lot ?? ''],
  );
  const what = key.lot === null ? `GTIN ${key.gtin}` : `GTIN ${key.gtin} lot ${key.lot}`;
  if (existing && existing.company_id === scope.companyId) {
    return new DomainError(
      'conflict',
      'dpp_exists',
      `Your ${existing.granularity} passport ${dppIdOf(existing.service_uid)} already has ${what}.`,
    );
  }
  return new DomainError('conflict', 'dpp_key_taken', `Another company's passport already has ${what}.`);
}
