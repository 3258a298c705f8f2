/** RFC 6901 pointers over the form's JSON value (the API names fields the same way). */

type Json = Record<string, unknown>;

export const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const tokens = (pointer: string) =>
  pointer === '' || pointer === '/'
    ? []
    : pointer
        .slice(1)
        .split('/')
        .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'));

export const child = (pointer: string, key: string | number) =>
  `${pointer === '/' ? '' : pointer}/${String(key).replaceAll('~', '~0').replaceAll('/', '~1')}`;

export function getAt(value: unknown, pointer: string): unknown {
  let at = value;
  for (const token of tokens(pointer)) {
    if (Array.isArray(at)) at = at[Number(token)];
    else if (isObject(at)) at = at[token];
    else return undefined;
  }
  return at;
}

/** A copy of `root` with `value` at `pointer` (undefined removes it; empty objects left behind are pruned). */
export function setAt(root: Json, pointer: string, value: unknown): Json {
  const path = tokens(pointer);
  const put = (node: unknown, depth: number): unknown => {
    const token = path[depth]!;
    const last = depth === path.length - 1;
    if (Array.isArray(node)) {
      const copy = [...node];
      copy[Number(token)] = last ? value : put(copy[Number(token)], depth + 1);
      return copy;
    }
    const copy: Json = isObject(node) ? { ...node } : {};
    const next = last ? value : put(copy[token], depth + 1);
    if (next === undefined || (isObject(next) && Object.keys(next).length === 0)) delete copy[token];
    else copy[token] = next;
    return copy;
  };
  return path.length === 0 ? (value as Json) : (put(root, 0) as Json);
}

/** `own` completed by `inherited`, as the API completes an item's data by its model's and batch's. */
export function completed(inherited: unknown, own: unknown): unknown {
  if (own === undefined) return inherited;
  if (isObject(inherited) && isObject(own)) {
    const merged: Json = { ...inherited };
    for (const [key, value] of Object.entries(own)) merged[key] = completed(inherited[key], value);
    return merged;
  }
  return own;
}

/** The source of the value at `pointer` (its own entry, or the nearest enclosing one). */
export function sourceOf(sources: Record<string, string>, pointer: string): string | undefined {
  for (let at = pointer; at !== ''; at = at.slice(0, at.lastIndexOf('/'))) {
    if (sources[at] !== undefined) return sources[at];
  }
  return undefined;
}

/** The data split by origin: what the passport itself states, and what it inherits (by leaf source). */
export function splitBySource(
  data: Json,
  sources: Record<string, string>,
  self: string,
): { own: Json; inherited: Json } {
  let own: Json = {};
  let inherited: Json = {};
  const walk = (value: unknown, pointer: string) => {
    const source = sourceOf(sources, pointer);
    if (isObject(value) && (source === undefined || sources[pointer] === undefined)) {
      for (const [key, item] of Object.entries(value)) walk(item, child(pointer, key));
      return;
    }
    if (source !== undefined && source !== self) inherited = setAt(inherited, pointer, value);
    else own = setAt(own, pointer, value);
  };
  walk(data, '');
  return { own, inherited };
}
