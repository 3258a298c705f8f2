/**
 * The product-group content specifications a passport (`p`, the passports row of the statement) is pinned to,
 * as a JSON array in group order (one primary-key lookup in passport_content per passport). The facts queries of
 * every representation select it for the EN 18223 header's contentSpecificationIds.
 */
export const PINNED_SPECIFICATIONS_SQL = `coalesce((select jsonb_agg(pc.specification_id order by pc.spec_group)
    from passport_content pc where pc.passport_id = p.id), '[]'::jsonb)`;

/** The column read back: a JSON array (the driver parses jsonb), or its text when a driver does not. */
export function pinnedIds(value: unknown): string[] {
  const parsed = typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
  return Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === 'string') : [];
}

/**
 * A passport's product-group data (`p` as above): a JSON array of {specificationId, data}, in group order (the
 * same primary-key lookup). Served only through a disclosure cut (src/passport/disclosure/product-group-view.ts).
 */
export const PRODUCT_GROUP_DATA_SQL = `coalesce((select jsonb_agg(jsonb_build_object('specificationId',
    pc.specification_id, 'data', pc.data) order by pc.spec_group)
    from passport_content pc where pc.passport_id = p.id), '[]'::jsonb)`;

/** A product-group data entry as the statement above answers it. */
export interface ProductGroupEntry {
  specificationId: string;
  data: Record<string, unknown>;
}

/** The column of {@link PRODUCT_GROUP_DATA_SQL} read back (parsed jsonb, or its text). */
export function productGroupEntries(value: unknown): ProductGroupEntry[] {
  const parsed = typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
  if (!Array.isArray(parsed)) return [];
  return parsed.flatMap((entry) =>
    typeof entry === 'object' &&
    entry !== null &&
    typeof entry.specificationId === 'string' &&
    typeof entry.data === 'object' &&
    entry.data !== null
      ? [{ specificationId: entry.specificationId as string, data: entry.data as Record<string, unknown> }]
      : [],
  );
}
