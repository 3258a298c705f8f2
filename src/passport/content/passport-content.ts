import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError } from '../../platform/errors.ts';
import {
  type ContentSpecificationRegistry,
  type ContentViolation,
  parseSpecificationId,
} from './content-specification.ts';

/** A passport's product-group data as stored: the version it is pinned to and the data valid against it. */
export interface PassportContent {
  specificationId: string;
  data: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
}

/** A write refused because the data does not follow the pinned specification (each field named). */
export class ContentInvalid extends Error {
  readonly specificationId: string;
  readonly violations: ContentViolation[];

  constructor(specificationId: string, violations: ContentViolation[]) {
    super(`The data does not follow ${specificationId}: ${violations.length} field(s) refused.`);
    this.specificationId = specificationId;
    this.violations = violations;
  }
}

interface Row {
  specification_id: string;
  data: Record<string, unknown>;
  created_at: Date | string;
  updated_at: Date | string;
}

const date = (value: Date | string) => (value instanceof Date ? value : new Date(value));
const toContent = (row: Row): PassportContent => ({
  specificationId: row.specification_id,
  data: row.data,
  createdAt: date(row.created_at),
  updatedAt: date(row.updated_at),
});

/** The specification known by this id, or a 404 (400 when the id is not of our form). */
export function requireSpecification(registry: ContentSpecificationRegistry, specificationId: string) {
  if (!parseSpecificationId(specificationId)) {
    throw new DomainError(
      'invalid',
      'invalid_content_specification_id',
      'A content specification id is urn:dpp-service:spec:<group>:<major.minor.patch>.',
    );
  }
  const spec = registry.get(specificationId);
  if (!spec) {
    throw new DomainError(
      'not_found',
      'content_specification_not_found',
      `No content specification ${specificationId} (GET /v1/content-specifications lists them).`,
    );
  }
  return spec;
}

/** 409 content_specification_pinned when the passport's data of this group follows another version. */
export async function refuseOtherPin(
  em: EntityManager,
  passportId: number,
  group: string,
  specificationId: string,
) {
  const [pinned] = await em.execute<{ specification_id: string }[]>(
    'select specification_id from passport_content where passport_id = ? and spec_group = ?',
    [passportId, group],
  );
  if (pinned && pinned.specification_id !== specificationId) {
    throw new DomainError(
      'conflict',
      'content_specification_pinned',
      `This passport follows ${pinned.specification_id}; its ${group} data is written against that version.`,
    );
  }
}

/** The passport's data of one product group (undefined when none was written); `lock`: for update. */
export async function readPassportContent(
  em: EntityManager,
  passportId: number,
  group: string,
  options: { lock?: boolean } = {},
): Promise<PassportContent | undefined> {
  const [row] = await em.execute<Row[]>(
    `select specification_id, data, created_at, updated_at from passport_content where passport_id = ? and spec_group = ?${
      options.lock ? ' for update' : ''
    }`,
    [passportId, group],
  );
  return row ? toContent(row) : undefined;
}

/** Replaces the stored data of a product group (the caller holds the row's lock and validated the data). */
export async function updateContentData(
  tx: EntityManager,
  passportId: number,
  group: string,
  data: Record<string, unknown>,
): Promise<void> {
  await tx.execute(
    'update passport_content set data = ?::jsonb, updated_at = now() where passport_id = ? and spec_group = ?',
    [JSON.stringify(data), passportId, group],
  );
}

/** Every product-group specification the passport is pinned to, in group order. */
export async function pinnedSpecificationIds(em: EntityManager, passportId: number): Promise<string[]> {
  const rows = await em.execute<{ specification_id: string }[]>(
    'select specification_id from passport_content where passport_id = ? order by spec_group',
    [passportId],
  );
  return rows.map((row) => row.specification_id);
}
