import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError } from '../../platform/errors.ts';
import type { DppRef } from '../dpp-api/find-dpp.ts';
import {
  applyDynamicUpdate,
  type BatteryDynamicUpdate,
  bodyPointer,
  dynamicUpdateSchema,
  validateDynamicUpdate,
} from './battery/battery-dynamic.ts';
import { enforceContentRules } from './content-rules.ts';
import type { ContentSpecificationRegistry } from './content-specification.ts';
import type { ContentWriter } from './content-writer.ts';
import { completedData, inheritedLayers } from './inherited-layers.ts';
import { ContentInvalid, requireSpecification, updateContentData } from './passport-content.ts';
import {
  lockWritablePassport,
  type ProductDataChange,
  recordProductDataChange,
} from './product-data-change.ts';

export interface DynamicUpdateResult extends ProductDataChange {
  changed: string[];
  specificationId: string;
}

interface ContentRow {
  specification_id: string;
  data: Record<string, unknown>;
}

/** A recycler writes one thing: the status waste (docs/battery-passport.md, "Who writes what"). */
function refuseOutsideRole(update: BatteryDynamicUpdate, writer: ContentWriter): void {
  if (writer.role !== 'recycler') return;
  const others = Object.keys(update).filter((name) => name !== 'batteryStatus');
  if (others.length > 0 || update.batteryStatus !== 'waste') {
    throw new DomainError(
      'forbidden',
      'writer_role_forbidden',
      'A recycler declares the status waste and writes nothing else (the brand or a repairer writes the rest).',
    );
  }
}

/**
 * Appends dynamic data to a passport's product-group data (docs/battery-passport.md "Dynamic data") in one
 * transaction: the merged data (validated against the pinned specification and the group's rules), then the
 * anchored change (recordProductDataChange: PRODUCT_DATA_UPDATED event and new version). The caller starts the
 * event's anchor workflow once this committed. Refusals: 400 content_invalid naming each member of the body,
 * 403 waste_declaration_forbidden / writer_role_forbidden, 404 content_not_found, 409
 * content_specification_pinned / token_recycled / passport_revoked / battery_status_final.
 */
export async function recordDynamicUpdate(
  em: EntityManager,
  registry: ContentSpecificationRegistry,
  ref: DppRef,
  specificationId: string,
  body: unknown,
  writer: ContentWriter,
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
  refuseOutsideRole(update, writer);

  return em.transactional(async (tx) => {
    // Lock order as every content write's (the content row, then the passport row for its version), so
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
    await lockWritablePassport(tx, ref);

    const condition = (row.data.performanceAndDurability as Record<string, unknown> | undefined)
      ?.batteryCondition as Record<string, unknown[] | undefined> | undefined;
    const before = {
      negativeEvents: condition?.negativeEvents?.length ?? 0,
      accidentReports: condition?.accidentReports?.length ?? 0,
    };
    const { data, changed } = applyDynamicUpdate(row.data, update);
    // Ruled and validated as the item's data completed by its model's and batch's (docs/granularity.md).
    const layers = await inheritedLayers(tx, ref.passportId, spec.id);
    const complete = (own: Record<string, unknown>) => completedData(layers, own) as Record<string, unknown>;
    enforceContentRules(spec.group, complete(row.data), complete(data), writer.role);
    const violations = registry.validate(spec.id, complete(data));
    if (violations.length > 0) {
      throw new ContentInvalid(
        spec.id,
        violations.map((v) => ({ ...v, pointer: bodyPointer(v.pointer, before) })),
      );
    }
    await updateContentData(tx, ref.passportId, spec.group, data);
    const recorded = await recordProductDataChange(
      tx,
      ref,
      { specificationId: spec.id, data, changed },
      writer,
      publicBaseUrl,
    );
    return { ...recorded, changed, specificationId: spec.id };
  });
}
