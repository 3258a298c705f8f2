/**
 * The one inheritance merge (docs/granularity.md): layers from the most general to the most specific (model,
 * batch, item); a later layer's value overrides; objects merge member by member; arrays and scalars replace
 * whole (an item's list of materials is its list, not the model's plus its own). A member set to null overrides
 * too (the item states "no value"). Every read of an item's content goes through {@link mergeLayers}.
 */

type Data = Record<string, unknown>;

/** One level's data and the passport it is read from. */
export interface Layer {
  dppId: string;
  data: Data;
}

/** The merged data and, for each leaf (a scalar, null or array), the dppId it comes from, by RFC 6901 pointer. */
export interface Merged {
  data: Data;
  sources: Record<string, string>;
}

const isObject = (value: unknown): value is Data =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const escapePointer = (key: string) => key.replaceAll('~', '~0').replaceAll('/', '~1');

function overlay(
  base: Data,
  top: Data,
  dppId: string,
  pointer: string,
  sources: Record<string, string>,
): Data {
  const result: Data = { ...base };
  for (const [key, value] of Object.entries(top)) {
    const at = `${pointer}/${escapePointer(key)}`;
    const below = result[key];
    if (isObject(value) && isObject(below)) {
      result[key] = overlay(below, value, dppId, at, sources);
    } else {
      for (const stale of Object.keys(sources))
        if (stale === at || stale.startsWith(`${at}/`)) delete sources[stale];
      result[key] = value;
      markLeaves(value, dppId, at, sources);
    }
  }
  return result;
}

function markLeaves(value: unknown, dppId: string, pointer: string, sources: Record<string, string>): void {
  if (isObject(value)) {
    for (const [key, child] of Object.entries(value))
      markLeaves(child, dppId, `${pointer}/${escapePointer(key)}`, sources);
  } else {
    sources[pointer] = dppId;
  }
}

/** Merges the layers, most general first. */
export function mergeLayers(layers: readonly Layer[]): Merged {
  const sources: Record<string, string> = {};
  let data: Data = {};
  for (const layer of layers) data = overlay(data, layer.data, layer.dppId, '', sources);
  return { data, sources };
}

/** The sources of the leaves `data` still holds (after disclosure cut it), with `prefix` before each pointer. */
export function sourcesOf(
  data: unknown,
  sources: Record<string, string>,
  prefix = '',
): Record<string, string> {
  const kept: Record<string, string> = {};
  const walk = (value: unknown, pointer: string) => {
    if (isObject(value)) {
      for (const [key, child] of Object.entries(value)) walk(child, `${pointer}/${escapePointer(key)}`);
    } else if (sources[pointer] !== undefined) {
      kept[`${prefix}${pointer}`] = sources[pointer];
    }
  };
  walk(data, '');
  return kept;
}
