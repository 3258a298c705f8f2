import { isError } from 'ethers';

const NONCE_TAKEN =
  /nonce too low|nonce has already been used|replacement transaction underpriced|replacement fee too low/i;
const NONCE_GAP = /nonce too high|nonce gap|invalid nonce/i;

/** 'taken': the nonce is used (mined or pending); 'gap': it is ahead of the account; undefined: not a nonce error. */
export function nonceErrorKind(error: unknown): 'taken' | 'gap' | undefined {
  if (isError(error, 'NONCE_EXPIRED') || isError(error, 'REPLACEMENT_UNDERPRICED')) return 'taken';
  const texts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const record = current as Record<string, unknown>;
    if (typeof record.message === 'string') texts.push(record.message);
    if (typeof record.shortMessage === 'string') texts.push(record.shortMessage);
    current = record.error ?? (record.info as Record<string, unknown> | undefined)?.error ?? record.cause;
  }
  const text = texts.join(' | ');
  if (NONCE_TAKEN.test(text)) return 'taken';
  if (NONCE_GAP.test(text)) return 'gap';
  return undefined;
}
