import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError } from '../../platform/errors.ts';
import type { DppRef } from '../dpp-api/find-dpp.ts';
import {
  latestPassportVersion,
  type PassportVersion,
  recordPassportVersion,
} from '../record/passport-versions.ts';
import { changedPointers } from './changed-pointers.ts';
import { ContentPreconditionFailed, contentEtag, ifMatchHolds } from './content-etag.ts';
import { enforceContentRules, keepAnchoredData } from './content-rules.ts';
import type { ContentSpecificationRegistry } from './content-specification.ts';
import type { ContentWriter } from './content-writer.ts';
import { completedData, inheritedLayers } from './inherited-layers.ts';
import {
  ContentInvalid,
  type PassportContent,
  readPassportContent,
  refuseOtherPin,
  requireSpecification,
  updateContentData,
} from './passport-content.ts';
import {
  lockWritablePassport,
  type ProductDataChange,
  recordProductDataChange,
} from './product-data-change.ts';

type Data = Record<string, unknown>;

export interface ContentWriteResult {
  content: PassportContent;
  created: boolean;
  etag: string;
  /** The anchored change; undefined when the write changed nothing. */
  change: ProductDataChange | undefined;
  /** The passport's version after the write (the latest one when nothing changed). */
  version: PassportVersion;
}

/** A concurrent first write inserted the row between our read and our insert: the write starts again. */
class LostFirstWrite extends Error {}

/**
 * Writes (replaces) the passport's data of the specification's product group (docs/battery-passport.md,
 * "Rewriting the data"), in one transaction: the content row locked, the pin checked (the first write pins the
 * passport to this version; another version of a pinned group: 409), `ifMatch` checked against the stored data's
 * ETag (412 {@link ContentPreconditionFailed}); without `ifMatch` the group's anchored appended data is kept
 * (keepAnchoredData); the group's rules (enforceContentRules) and the pinned schema ({@link ContentInvalid}) hold
 * for what is stored; a change is recorded as every content change is (recordProductDataChange: an anchored
 * PRODUCT_DATA_UPDATED event and a new version). The caller starts the event's anchor once committed.
 */
export async function replacePassportContent(
  em: EntityManager,
  registry: ContentSpecificationRegistry,
  ref: DppRef,
  write: { specificationId: string; data: unknown; ifMatch?: string },
  writer: ContentWriter,
  publicBaseUrl: string,
): Promise<ContentWriteResult> {
  const spec = requireSpecification(registry, write.specificationId);
  // An item under a model or batch writes what differs: its data is checked completed by what it inherits.
  const layers = await inheritedLayers(em, ref.passportId, spec.id);
  const violations = registry.validate(spec.id, completedData(layers, write.data));
  if (violations.length > 0) {
    // A write naming another version than the pin is a conflict before it is a validation matter.
    await refuseOtherPin(em, ref.passportId, spec.group, spec.id);
    throw new ContentInvalid(spec.id, violations);
  }
  const body = write.data as Data;
  for (let attempt = 0; ; attempt++) {
    try {
      return await em.transactional(async (tx) => {
        const stored = await readPassportContent(tx, ref.passportId, spec.group, { lock: true });
        if (stored && stored.specificationId !== spec.id) {
          throw new DomainError(
            'conflict',
            'content_specification_pinned',
            `This passport follows ${stored.specificationId}; its ${spec.group} data is written against that version.`,
          );
        }
        await lockWritablePassport(tx, ref);
        const storedEtag = stored ? contentEtag(stored.specificationId, stored.data) : undefined;
        if (write.ifMatch !== undefined && !ifMatchHolds(write.ifMatch, storedEtag)) {
          const latest = await latestPassportVersion(tx, ref.passportId);
          throw new ContentPreconditionFailed(storedEtag, latest?.number);
        }
        const data =
          stored && write.ifMatch === undefined ? keepAnchoredData(spec.group, stored.data, body) : body;
        if (data !== body) {
          const kept = registry.validate(spec.id, completedData(layers, data));
          if (kept.length > 0) throw new ContentInvalid(spec.id, kept);
        }
        enforceContentRules(
          spec.group,
          stored && (completedData(layers, stored.data) as Data),
          completedData(layers, data) as Data,
          writer.role,
        );
        const changed = changedPointers(stored?.data ?? {}, data);
        if (stored && changed.length === 0) {
          // Nothing changed: no event; the version is the latest (recorded now if the header changed meanwhile).
          const version = await recordPassportVersion(tx, ref.passportId, publicBaseUrl);
          return {
            content: stored,
            created: false,
            etag: storedEtag!,
            change: undefined,
            version: version!,
          };
        }
        const content = await storeContent(tx, ref, spec, data, stored !== undefined);
        const change = await recordProductDataChange(
          tx,
          ref,
          { specificationId: spec.id, data, changed },
          writer,
          publicBaseUrl,
        );
        return {
          content,
          created: !stored,
          etag: contentEtag(content.specificationId, content.data),
          change,
          version: change.version,
        };
      });
    } catch (error) {
      if (!(error instanceof LostFirstWrite) || attempt > 0) throw error;
    }
  }
}

async function storeContent(
  tx: EntityManager,
  ref: DppRef,
  spec: { id: string; group: string },
  data: Data,
  exists: boolean,
): Promise<PassportContent> {
  if (exists) {
    await updateContentData(tx, ref.passportId, spec.group, data);
  } else {
    const inserted = await tx.execute<{ passport_id: number }[]>(
      `insert into passport_content (passport_id, spec_group, specification_id, company_id, environment, data)
       values (?, ?, ?, ?, ?, ?::jsonb) on conflict (passport_id, spec_group) do nothing returning passport_id`,
      [ref.passportId, spec.group, spec.id, ref.companyId, ref.environment, JSON.stringify(data)],
    );
    if (inserted.length === 0) throw new LostFirstWrite();
  }
  const content = await readPassportContent(tx, ref.passportId, spec.group);
  if (!content) throw new Error('passport_content row missing right after its write');
  return content;
}
