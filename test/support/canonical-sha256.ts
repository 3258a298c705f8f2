import { createHash } from 'node:crypto';
import canonicalizeModule from 'canonicalize';

type Canonicalize = (value: unknown) => string | undefined;
// A CommonJS module: its export is the function (typed as a module with a default export).
const canonicalize: Canonicalize =
  typeof canonicalizeModule === 'function'
    ? (canonicalizeModule as Canonicalize)
    : (canonicalizeModule as unknown as { default: Canonicalize }).default;

/** SHA-256 (hex) of the RFC 8785 form, computed with a third party's canonicalizer, not the service's. */
export const sha256 = (value: unknown) =>
  createHash('sha256')
    .update(canonicalize(value) as string, 'utf8')
    .digest('hex');
