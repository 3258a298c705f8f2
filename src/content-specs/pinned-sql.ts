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
