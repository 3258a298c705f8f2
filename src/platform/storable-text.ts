/** Why PostgreSQL cannot store a string: text and jsonb refuse NUL, and UTF-8 has no lone surrogates. */
export type UnstorableReason = 'nul_character' | 'unpaired_surrogate';

/** The reason `text` cannot be stored as PostgreSQL text, or undefined when it can. */
export function unstorableReason(text: string): UnstorableReason | undefined {
  if (text.includes('\u0000')) return 'nul_character';
  if (!text.isWellFormed()) return 'unpaired_surrogate';
  return undefined;
}

/**
 * The first string (object keys included) in a JSON-like value that PostgreSQL cannot store, with its path
 * (`['custom_dpp_data', 'name']`). Walks iteratively, so depth is no risk.
 */
export function findUnstorableText(
  value: unknown,
): { path: (string | number)[]; reason: UnstorableReason } | undefined {
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value, path: [] }];
  while (stack.length > 0) {
    const { value: current, path } = stack.pop()!;
    if (typeof current === 'string') {
      const reason = unstorableReason(current);
      if (reason) return { path, reason };
    } else if (Array.isArray(current)) {
      current.forEach((item, index) => {
        stack.push({ value: item, path: [...path, index] });
      });
    } else if (current !== null && typeof current === 'object') {
      for (const [key, item] of Object.entries(current)) {
        const reason = unstorableReason(key);
        if (reason) return { path: [...path, key], reason };
        stack.push({ value: item, path: [...path, key] });
      }
    }
  }
  return undefined;
}
