/**
 * How long an archived passport is kept, by the product rule that applies to it (docs/en18222.md,
 * "Retention"). The passport's product group (its pinned content specification's group) names the rule; the
 * period counts from the archive. Nothing deletes a passport, archived or not, before or after the date: it is
 * the earliest a purge could ever be considered, and no purge job exists.
 */
export interface RetentionRule {
  rule: 'construction-products' | 'battery' | 'default';
  /** The provision implemented. */
  basis: string;
  /** Years counted from the archive; null: no end while the product exists (kept). */
  years: number | null;
}

const RULES: Readonly<Record<string, RetentionRule>> = {
  construction: {
    rule: 'construction-products',
    // The articles say "a period after the last product of the type is placed on the market" without a number
    // (Art. 75 leaves the system's details to delegated acts, none adopted yet); 25 years is the longest period
    // commentators name (the system's; 10 for the operator) and counts from the archive, which for a product
    // type's passport comes no earlier than its last product's placing on the market.
    basis:
      'Reg. (EU) 2024/3110 (CPR) Art. 76(2)(h): accessible for a period after the last product of its product ' +
      'type is placed on the market; Art. 78(e): available for that period also after the operator’s ' +
      'insolvency, liquidation or cessation of activity. The period is not yet set; the service keeps 25 years',
    years: 25,
  },
  battery: {
    rule: 'battery',
    basis:
      'Reg. (EU) 2023/1542 Art. 77(8): a battery passport ceases to exist only once the battery is recycled; ' +
      'an archive that is not recycling keeps it without an end date',
    years: null,
  },
};

const DEFAULT_RULE: RetentionRule = {
  rule: 'default',
  basis:
    'Reg. (EU) 2024/1781 (ESPR) Art. 9(2)(i): available at least for the product’s expected lifetime, which ' +
    'the product group’s delegated act sets; until one applies, the service keeps 10 years',
  years: 10,
};

/** The rule for a passport pinned to these product groups (the longest period of those that apply). */
export function retentionRule(groups: readonly string[]): RetentionRule {
  const rules = groups.map((group) => RULES[group]).filter((rule) => rule !== undefined);
  if (rules.length === 0) return DEFAULT_RULE;
  return rules.reduce((longest, rule) =>
    rule.years === null || (longest.years !== null && rule.years > longest.years) ? rule : longest,
  );
}

/** Until when a passport archived at `archivedAt` is kept under `rule`; null: no end date. */
export function retainUntil(rule: RetentionRule, archivedAt: Date): Date | null {
  if (rule.years === null) return null;
  const until = new Date(archivedAt);
  until.setUTCFullYear(until.getUTCFullYear() + rule.years);
  return until;
}

/** The rule and date an archive at `archivedAt` of a passport pinned to these product groups gets. */
export function archiveRetention(
  groups: readonly string[],
  archivedAt: Date,
): RetentionRule & { retainUntil: Date | null } {
  const rule = retentionRule(groups);
  return { ...rule, retainUntil: retainUntil(rule, archivedAt) };
}

/** A retention as the status-change answers show it (items and levels alike). */
export function retentionAnswer(retention: (RetentionRule & { retainUntil: Date | null }) | undefined) {
  return retention
    ? {
        retention: {
          rule: retention.rule,
          basis: retention.basis,
          retainUntil: retention.retainUntil?.toISOString() ?? null,
        },
      }
    : {};
}
