import type { TokenIdInput } from './passport-types.ts';

/** A token id as the contract takes it (ids come in as `bigint | number | string`, out as decimal strings). */
export function toTokenId(value: TokenIdInput): bigint {
  const text = String(value);
  if (!/^[1-9][0-9]*$/.test(text)) throw new TypeError(`token id must be a positive integer, got "${text}"`);
  return BigInt(text);
}
