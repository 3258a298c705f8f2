import { canonicalJson } from '../../standards/ipfs/json.ts';
import { etagOf } from '../views/etag.ts';

/**
 * The strong ETag of product-group data as served: over the RFC 8785 form of the specification id and the data
 * (the owning company's read serves the stored data whole, so its ETag is the stored data's).
 */
export function contentEtag(specificationId: string, data: unknown): string {
  return etagOf(canonicalJson({ contentSpecificationId: specificationId, data }));
}

/**
 * Whether an If-Match header value holds for the current ETag (RFC 9110 §13.1.1, strong comparison): `*` when
 * data exists, or a listed entity-tag equal to it. Anything else — another tag, a weak one, a malformed value —
 * does not hold.
 */
export function ifMatchHolds(header: string, current: string | undefined): boolean {
  if (current === undefined) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim() === current);
}

/** A write refused because its If-Match no longer names the current data: 412 with what is current now. */
export class ContentPreconditionFailed extends Error {
  readonly currentEtag: string | null;
  readonly currentVersion: number | null;

  constructor(currentEtag: string | undefined, currentVersion: number | undefined) {
    super(
      currentEtag === undefined
        ? 'If-Match names data, but none was written yet.'
        : 'The data changed since the read If-Match names: read it again (GET), apply your change, send the new ETag.',
    );
    this.currentEtag = currentEtag ?? null;
    this.currentVersion = currentVersion ?? null;
  }
}
