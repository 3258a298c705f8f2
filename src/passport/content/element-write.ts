import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError } from '../../platform/errors.ts';
import type { PathSegment } from '../dpp-api/element-path.ts';
import type { DppRef } from '../dpp-api/find-dpp.ts';
import { ContentPreconditionFailed, contentEtag } from './content-etag.ts';
import type { ContentSpecificationRegistry } from './content-specification.ts';
import type { ContentWriter } from './content-writer.ts';
import { readPassportContent, requireSpecification } from './passport-content.ts';
import { type ContentWriteResult, replacePassportContent } from './put-content.ts';

type Data = Record<string, unknown>;

const isObject = (value: unknown): value is Data =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** `data` with the node the segments name set to `value` (its parent must exist); undefined: no such parent. */
export function withElement(data: Data, segments: readonly PathSegment[], value: unknown): Data | undefined {
  const root = structuredClone(data);
  let node: unknown = root;
  for (const [i, segment] of segments.entries()) {
    const last = i === segments.length - 1;
    if ('index' in segment) {
      if (!Array.isArray(node) || segment.index >= node.length) return undefined;
      if (last) node[segment.index] = value;
      else node = node[segment.index];
    } else {
      if (!isObject(node)) return undefined;
      if (last) node[segment.name] = value;
      else if (!Object.hasOwn(node, segment.name)) return undefined;
      else node = node[segment.name];
    }
  }
  return root;
}

/** RFC 7396 JSON Merge Patch of `target` by `patch`. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const result: Data = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = mergePatch(result[key], value);
  }
  return result;
}

/**
 * Writes a change computed from the stored data of a product-group section (an element set, a merge patch)
 * through the one content write path (replacePassportContent: pin, schema, group rules, status rules, anchored
 * event, version). The caller's If-Match, when sent, must name the stored data; without one the write holds only
 * over the data it was computed from (retried on a concurrent change), so no concurrent write is lost.
 */
export async function rewriteContent(
  em: EntityManager,
  registry: ContentSpecificationRegistry,
  ref: DppRef,
  write: { specificationId: string; change: (stored: Data) => Data; ifMatch?: string | undefined },
  writer: ContentWriter,
  publicBaseUrl: string,
): Promise<ContentWriteResult> {
  const spec = requireSpecification(registry, write.specificationId);
  for (let attempt = 0; ; attempt++) {
    const stored = await readPassportContent(em, ref.passportId, spec.group);
    if (!stored || stored.specificationId !== spec.id) {
      throw new DomainError(
        'not_found',
        'element_not_found',
        stored
          ? `This passport follows ${stored.specificationId}, not ${spec.id}.`
          : `No ${spec.group} data was written for this passport (write it whole first).`,
      );
    }
    const ifMatch = write.ifMatch ?? contentEtag(stored.specificationId, stored.data);
    try {
      return await replacePassportContent(
        em,
        registry,
        ref,
        { specificationId: spec.id, data: write.change(stored.data), ifMatch },
        writer,
        publicBaseUrl,
      );
    } catch (error) {
      if (!(error instanceof ContentPreconditionFailed) || write.ifMatch !== undefined || attempt >= 2)
        throw error;
    }
  }
}
