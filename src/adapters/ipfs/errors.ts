import { DomainError } from '../../platform/errors.ts';

/** A string that is not a CID was given where one is required (a 400 `invalid_cid` through the API). */
export class InvalidCidError extends DomainError {
  constructor(value: string) {
    super(
      'invalid',
      'invalid_cid',
      `Not a CID: ${JSON.stringify(value.length > 100 ? `${value.slice(0, 100)}…` : value)}`,
    );
    this.name = 'InvalidCidError';
  }
}

/**
 * Stored bytes no longer hash to the CID they are stored under: they are reported, never served. Deliberately
 * not a DomainError: it is an operational fault (a 500 that gets logged), not something a client did.
 */
export class ContentIntegrityError extends Error {
  readonly code = 'content_integrity';
  readonly cid: string;
  readonly actualCid: string;
  readonly location: string;
  constructor(cid: string, actualCid: string, location: string) {
    super(`Stored content for ${cid} is corrupt: it hashes to ${actualCid} (${location}).`);
    this.name = 'ContentIntegrityError';
    this.cid = cid;
    this.actualCid = actualCid;
    this.location = location;
  }
}

/**
 * The IPFS (Kubo) node could not be reached, timed out, or answered with something other than its RPC API
 * (a 503 `ipfs_unavailable` through the API).
 */
export class IpfsUnavailableError extends DomainError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('unavailable', 'ipfs_unavailable', message);
    this.name = 'IpfsUnavailableError';
    if (options?.cause !== undefined) this.cause = options.cause;
  }
}
