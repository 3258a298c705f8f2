import type { EntityManager } from '@mikro-orm/postgresql';
import type { ContentSpecificationRegistry } from '../../passport/content/content-specification.ts';
import type { ContentWriter } from '../../passport/content/content-writer.ts';
import { type DynamicUpdateResult, recordDynamicUpdate } from '../../passport/content/dynamic-update.ts';
import { requireSpecification } from '../../passport/content/passport-content.ts';
import type { DppRef } from '../../passport/dpp-api/find-dpp.ts';
import { dppIdOf } from '../../passport/record/passport-header.ts';
import { DomainError } from '../../platform/errors.ts';

/** How a battery got its new passport (Art. 77(6): repurposed or remanufactured). */
export type SuccessionRelation = 'repurposed' | 'remanufactured';

export interface RepurposeResult {
  original: DynamicUpdateResult;
  successor: DynamicUpdateResult;
}

/**
 * Links a repurposed (or remanufactured) battery's new passport to its original (docs/battery-passport.md,
 * "Repurposing"), in one transaction: the link (passport_links), the original's status set to the relation and
 * the successor's likewise, each a dynamic update (a new version listing the link in `relatedPassports`, and a
 * PRODUCT_DATA_UPDATED event the caller has anchored). The successor is the caller's own passport, pinned to the
 * same product group and minted for the new battery; the original is the brand's (the caller may be the brand or
 * a company it granted `repairer`: `writer` says in which role). Both status changes go through the group's
 * rules like every content write (enforceContentRules, via recordDynamicUpdate). Refusals: 409
 * passports_already_linked, battery_status_final (a waste battery), 400 invalid_successor (the same passport),
 * 404 content_not_found.
 */
export async function linkRepurposedPassport(
  em: EntityManager,
  registry: ContentSpecificationRegistry,
  link: {
    original: DppRef;
    successor: DppRef;
    specificationId: string;
    relation: SuccessionRelation;
    linkedBy: string;
  },
  writers: { original: ContentWriter; successor: ContentWriter },
  publicBaseUrl: string,
): Promise<RepurposeResult> {
  const spec = requireSpecification(registry, link.specificationId);
  if (link.original.passportId === link.successor.passportId) {
    throw new DomainError('invalid', 'invalid_successor', 'A passport is not its own successor.');
  }
  return em.transactional(async (tx) => {
    // Every lock up front in the order content writers take them (content rows, then passport rows; each by
    // id), so the link's foreign-key locks on the passports never meet an update of either waiting the other way.
    const ids = [link.original.passportId, link.successor.passportId];
    await tx.execute(
      'select passport_id from passport_content where passport_id in (?, ?) and spec_group = ? order by passport_id for update',
      [...ids, spec.group],
    );
    await tx.execute('select id from passports where id in (?, ?) order by id for update', ids);
    const [successorPin] = await tx.execute<{ specification_id: string }[]>(
      'select specification_id from passport_content where passport_id = ? and spec_group = ?',
      [link.successor.passportId, spec.group],
    );
    if (!successorPin) {
      throw new DomainError(
        'not_found',
        'content_not_found',
        `The new passport ${dppIdOf(link.successor.serviceUid)} has no ${spec.group} data yet: write it first.`,
      );
    }
    const inserted = await tx.execute<{ id: string }[]>(
      `insert into passport_links (environment, original_passport_id, successor_passport_id, relation,
         linked_by_company_id)
       values (?, ?, ?, ?, ?)
       on conflict (original_passport_id, successor_passport_id) do nothing returning id`,
      [
        link.original.environment,
        link.original.passportId,
        link.successor.passportId,
        link.relation,
        link.linkedBy,
      ],
    );
    if (inserted.length === 0) {
      throw new DomainError(
        'conflict',
        'passports_already_linked',
        `${dppIdOf(link.successor.serviceUid)} is already linked to ${dppIdOf(link.original.serviceUid)}.`,
      );
    }
    const status = { batteryStatus: link.relation };
    const original = await recordDynamicUpdate(
      tx,
      registry,
      link.original,
      spec.id,
      status,
      writers.original,
      publicBaseUrl,
    );
    const successor = await recordDynamicUpdate(
      tx,
      registry,
      link.successor,
      successorPin.specification_id,
      status,
      writers.successor,
      publicBaseUrl,
    );
    return { original, successor };
  });
}
