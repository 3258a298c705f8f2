import { canonicalJson } from '../../standards/ipfs/json.ts';

type Data = Record<string, unknown>;

const isObject = (value: unknown): value is Data =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const escapePointer = (name: string) => name.replaceAll('~', '~0').replaceAll('/', '~1');

/**
 * The JSON pointers (RFC 6901) at which `after` differs from `before`: objects present in both are compared
 * member by member, anything else (values, arrays, a member added or removed) as a whole. Sorted.
 */
export function changedPointers(before: Data, after: Data, prefix = ''): string[] {
  const changed: string[] = [];
  for (const name of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const pointer = `${prefix}/${escapePointer(name)}`;
    const [was, now] = [before[name], after[name]];
    if (isObject(was) && isObject(now)) changed.push(...changedPointers(was, now, pointer));
    else if (canonicalJson(was ?? null) !== canonicalJson(now ?? null) || name in before !== name in after) {
      changed.push(pointer);
    }
  }
  return changed.sort();
}
