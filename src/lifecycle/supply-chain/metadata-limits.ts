/** Bounds of the free-form `metadata` object of a supply-chain event. */
export const METADATA_LIMITS = { maxBytes: 8192, maxKeys: 50, maxDepth: 3 } as const;

/**
 * Why `metadata` is out of bounds, or undefined when it fits: at most 8 KiB as JSON (UTF-8), at most 50 keys
 * counted over all nested objects, and nested at most 3 levels deep (the object itself is level 1).
 */
export function metadataProblem(metadata: Record<string, unknown>): string | undefined {
  const bytes = Buffer.byteLength(JSON.stringify(metadata), 'utf8');
  if (bytes > METADATA_LIMITS.maxBytes)
    return `metadata is ${bytes} bytes as JSON; at most ${METADATA_LIMITS.maxBytes} are accepted.`;
  let keys = 0;
  let deepest = 0;
  const walk = (value: unknown, depth: number) => {
    if (value === null || typeof value !== 'object') return;
    deepest = Math.max(deepest, depth);
    if (Array.isArray(value)) {
      for (const item of value) walk(item, depth + 1);
      return;
    }
    for (const member of Object.values(value)) {
      keys += 1;
      walk(member, depth + 1);
    }
  };
  walk(metadata, 1);
  if (keys > METADATA_LIMITS.maxKeys)
    return `metadata has ${keys} keys; at most ${METADATA_LIMITS.maxKeys} are accepted.`;
  if (deepest > METADATA_LIMITS.maxDepth)
    return `metadata is nested ${deepest} levels deep; at most ${METADATA_LIMITS.maxDepth} are accepted.`;
  return undefined;
}
