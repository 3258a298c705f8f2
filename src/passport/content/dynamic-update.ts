import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { SupplyChainEvent } from '../../platform/db/entities/index.ts';
import type { TenantScope } from '../../platform/db/tenant-scope.ts';
import { DomainError } from '../../platform/errors.ts';
import { canonicalJson } from '../../standards/ipfs/json.ts';
import type { DppRef } from '../dpp-api/find-dpp.ts';
import { dppIdOf } from '../record/passport-header.ts';
import { type PassportVersion, recordPassportVersion } from '../record/passport-versions.ts';
import { eventDataHash, eventView } from '../timeline/event-view.ts';
import {
  applyDynamicUpdate,
  type BatteryDynamicUpdate,
  bodyPointer,
  dynamicUpdateSchema,
  refusedStatusChange,
  validateDynamicUpdate,
} from './battery/battery-dynamic.ts';
import type { ContentSpecificationRegistry } from './content-specification.ts';
import { ContentInvalid, requireSpecification } from './passport-content.ts';

/**
 * The supply-chain action of a dynamic data change: written by the service only (never through
 * POST /v1/iaas/log-event), anchored on chain by the anchor-event workflow like every supply-chain event.
 */
export const PRODUCT_DATA_UPDATED = 'PRODUCT_DATA_UPDATED';

/** Who writes dynamic data: the brand (operator) or a company the brand granted `repairer`. */
export type DynamicWriterRole = 'operator' | 'repairer';

export interface DynamicWriter {
  companyId: string;
  companyName: string;
  role: DynamicWriterRole;
}

export interface DynamicUpdateResult {
  passportScope: TenantScope;
  event: SupplyChainEvent;
  version: PassportVersion;
  changed: string[];
  specificationId: string;
}

interface ContentRow {
  specification_id: string;
  data: Record<string, unknown>;
}

/** SHA-256 (hex) of the RFC 8785 form of product-group data: what the update's anchored event commits to. */
export function dataSha256(data: unknown): string {
  return createHash('sha256').update(canonicalJson(data), 'utf8').digest('hex');
}

/**
 * Appends dynamic data to a passport's product-group data (docs/battery-passport.md "Dynamic data") in one
 * transaction: the merged data (validated against the pinned specification), a PRODUCT_DATA_UPDATED
 * supply-chain event of the passport's company (its metadata: the specification, the SHA-256 of the new data,
 * the changed fields and who wrote them — no values), and the passport's new version. The caller starts the
 * event's anchor workflow once this committed. Refusals: 400 content_invalid naming each member of the body,
 * 404 content_not_found, 409 content_specification_pinned / token_recycled / passport_revoked /
 * battery_status_final.
 */
export async function recordDynamicUpdate(
  em: EntityManager,
  registry: ContentSpecificationRegistry,
  ref: DppRef,
  specificationId: string,
  body: unknown,
  writer: DynamicWriter,
  publicBaseUrl: string,
): Promise<DynamicUpdateResult> {
  const spec = requireSpecification(registry, specificationId);
  const schema = dynamicUpdateSchema(spec.schema);
  if (!schema) {
    throw new DomainError(
      'not_found',
      'dynamic_data_not_supported',
      `${spec.id} has no dynamic data (state of health, status, use events).`,
    );
  }
  const bodyViolations = validateDynamicUpdate(schema, body);
  if (bodyViolations.length > 0) throw new ContentInvalid(spec.id, bodyViolations);
  const update = body as BatteryDynamicUpdate;

  return em.transactional(async (tx) => {
    // Lock order as every content write's (PUT: the content row, then the passport row for its version), so
    // concurrent writers of one passport queue instead of deadlocking.
    const [row] = await tx.execute<ContentRow[]>(
      'select specification_id, data from passport_content where passport_id = ? and spec_group = ? for update',
      [ref.passportId, spec.group],
    );
    if (!row) {
      throw new DomainError(
        'not_found',
        'content_not_found',
        `No ${spec.group} data was written for this passport: the brand writes it first (PUT …/content/{specId}).`,
      );
    }
    if (row.specification_id !== spec.id) {
      throw new DomainError(
        'conflict',
        'content_specification_pinned',
        `This passport follows ${row.specification_id}; its ${spec.group} data is written against that version.`,
      );
    }
    const [passport] = await tx.execute<{ status: string; revoked_at: Date | null }[]>(
      'select status, revoked_at from passports where id = ? for update',
      [ref.passportId],
    );
    if (!passport)
      throw new DomainError('not_found', 'dpp_not_found', `No passport ${dppIdOf(ref.serviceUid)}.`);
    if (passport.status === 'RECYCLED') {
      throw new DomainError(
        'conflict',
        'token_recycled',
        'The passport is recycled; its data no longer changes.',
      );
    }
    if (passport.revoked_at) {
      throw new DomainError(
        'conflict',
        'passport_revoked',
        'The passport is revoked; its data no longer changes.',
      );
    }
    const general = row.data.generalProductInformation as Record<string, unknown> | undefined;
    const refusal = refusedStatusChange(general?.batteryStatus, update.batteryStatus);
    if (refusal) throw new DomainError('conflict', 'battery_status_final', refusal);

    const condition = (row.data.performanceAndDurability as Record<string, unknown> | undefined)
      ?.batteryCondition as Record<string, unknown[] | undefined> | undefined;
    const before = {
      negativeEvents: condition?.negativeEvents?.length ?? 0,
      accidentReports: condition?.accidentReports?.length ?? 0,
    };
    const { data, changed } = applyDynamicUpdate(row.data, update);
    const violations = registry.validate(spec.id, data);
    if (violations.length > 0) {
      throw new ContentInvalid(
        spec.id,
        violations.map((v) => ({ ...v, pointer: bodyPointer(v.pointer, before) })),
      );
    }
    await tx.execute(
      `update passport_content set data = ?::jsonb, updated_at = now() where passport_id = ? and spec_group = ?`,
      [JSON.stringify(data), ref.passportId, spec.group],
    );

    const passportScope: TenantScope = { companyId: ref.companyId, environment: ref.environment };
    const event = tx.create(SupplyChainEvent, {
      companyId: passportScope.companyId,
      environment: passportScope.environment,
      tokenId: ref.tokenId,
      action: PRODUCT_DATA_UPDATED,
      actor: writer.companyName,
      actorEmail: null,
      locationName: null,
      latitude: null,
      longitude: null,
      metadata: {
        contentSpecificationId: spec.id,
        dataSha256: dataSha256(data),
        changedFields: changed,
        writerRole: writer.role,
        ...(writer.role === 'operator' ? {} : { writerCompanyId: writer.companyId }),
      },
      dataHash: null,
      transactionHash: null,
      blockNumber: null,
      contractAddress: null,
      timestamp: new Date(),
    });
    await tx.flush();
    event.dataHash = eventDataHash(eventView(event));
    await tx.flush();
    const version = await recordPassportVersion(tx, ref.passportId, publicBaseUrl);
    if (!version)
      throw new DomainError('not_found', 'dpp_not_found', `No passport ${dppIdOf(ref.serviceUid)}.`);
    return { passportScope, event, version, changed, specificationId: spec.id };
  });
}
