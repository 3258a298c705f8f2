import { type DisclosurePolicy, fieldPattern, type Role } from '../content/disclosure.ts';

/**
 * The part of a passport's product-group data that callers holding `roles` may read (issue 25,
 * docs/disclosure.md). Pure. A leaf (a scalar, an array of scalars, or null) is kept when the policy entry of
 * its field pattern (`/a/0/b` → `/a/*\/b`, see {@link fieldPattern}) names at least one of `roles`; a leaf
 * whose pattern has no entry is dropped (fail closed: a field nobody decided on is never served). Objects and
 * arrays of objects are kept with what is readable inside them, and dropped when nothing is; an empty array
 * or object in the data is kept when some field under it would be readable.
 */
export function discloseContent(
  data: Record<string, unknown>,
  policy: DisclosurePolicy,
  roles: Iterable<Role>,
): Record<string, unknown> {
  const held = new Set(roles);
  const readable = (pattern: string) => policy[pattern]?.roles.some((role) => held.has(role)) === true;
  const readableUnder = (pattern: string) =>
    Object.entries(policy).some(
      ([field, entry]) =>
        field.startsWith(`${pattern}/`) && entry.roles.some((role) => held.has(role as Role)),
    );
  return (discloseObject(data, '', readable, readableUnder) ?? {}) as Record<string, unknown>;
}

type Check = (pattern: string) => boolean;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function discloseValue(value: unknown, pointer: string, readable: Check, readableUnder: Check): unknown {
  const pattern = fieldPattern(pointer);
  if (isObject(value)) return discloseObject(value, pointer, readable, readableUnder);
  if (Array.isArray(value) && value.some(isObject)) {
    const items = value.map((item, index) =>
      isObject(item)
        ? (discloseObject(item, `${pointer}/${index}`, readable, readableUnder) ?? {})
        : undefined,
    );
    // Every item falls under the same patterns: when one keeps something the array is kept, item for item.
    return items.some((item) => isObject(item) && Object.keys(item).length > 0)
      ? items.filter((item) => item !== undefined)
      : undefined;
  }
  if (Array.isArray(value) && value.length === 0) {
    return readable(pattern) || readableUnder(pattern) ? [] : undefined;
  }
  return readable(pattern) ? value : undefined;
}

function discloseObject(
  value: Record<string, unknown>,
  pointer: string,
  readable: Check,
  readableUnder: Check,
): Record<string, unknown> | undefined {
  const kept: Record<string, unknown> = {};
  for (const [name, child] of Object.entries(value)) {
    const childPointer = `${pointer}/${name.replaceAll('~', '~0').replaceAll('/', '~1')}`;
    const disclosed = discloseValue(child, childPointer, readable, readableUnder);
    if (disclosed !== undefined) kept[name] = disclosed;
  }
  if (Object.keys(kept).length > 0) return kept;
  // An empty object in the data stays when the caller could read something inside it; a filtered-out one goes.
  return Object.keys(value).length === 0 && (pointer === '' || readableUnder(fieldPattern(pointer)))
    ? kept
    : undefined;
}

/**
 * The data with every leaf the roles may not read replaced by `sentinel` (a scalar by the sentinel, an array
 * of scalars by `[sentinel]`), structure kept: for mappings that need the whole shape (the AAS submodels are
 * built from it, then every element holding the sentinel is removed). Leaves without policy are masked too.
 */
export function maskContent(
  data: Record<string, unknown>,
  policy: DisclosurePolicy,
  roles: Iterable<Role>,
  sentinel: string,
): Record<string, unknown> {
  const held = new Set(roles);
  const readable = (pointer: string) =>
    policy[fieldPattern(pointer)]?.roles.some((role) => held.has(role)) === true;
  const mask = (value: unknown, pointer: string): unknown => {
    if (isObject(value)) {
      return Object.fromEntries(
        Object.entries(value).map(([name, child]) => [
          name,
          mask(child, `${pointer}/${name.replaceAll('~', '~0').replaceAll('/', '~1')}`),
        ]),
      );
    }
    if (Array.isArray(value) && value.some(isObject)) {
      return value.map((item, index) => mask(item, `${pointer}/${index}`));
    }
    if (readable(pointer)) return value;
    if (Array.isArray(value)) return value.length > 0 ? [sentinel] : [];
    return value === undefined ? undefined : sentinel;
  };
  return mask(data, '') as Record<string, unknown>;
}
