/**
 * What a passport's product groups tell the registry: the Union acts its passport answers to (one registration
 * identity across all of them) and, where the group fixes it, the commodity code (HS/CN heading) customs match
 * it by. Every passport answers to the ESPR (Reg. (EU) 2024/1781, whose Art. 13 sets up the registry).
 */
const GROUPS: Readonly<Record<string, { regime: string; commodityCode?: string }>> = {
  // CN heading 8507: electric accumulators.
  battery: { regime: 'Regulation (EU) 2023/1542', commodityCode: '8507' },
  construction: { regime: 'Regulation (EU) 2024/3110' },
  detergent: { regime: 'Regulation (EU) 2026/405' },
  toy: { regime: 'Regulation (EU) 2025/2509' },
};

export const ESPR = 'Regulation (EU) 2024/1781';

export function regimesOf(groups: readonly string[]): string[] {
  const regimes = groups.flatMap((group) => (GROUPS[group] ? [GROUPS[group].regime] : []));
  return [ESPR, ...new Set(regimes)];
}

/** The commodity code the first product group that fixes one gives; null when none does. */
export function commodityCodeOf(groups: readonly string[]): string | null {
  for (const group of groups) {
    const code = GROUPS[group]?.commodityCode;
    if (code) return code;
  }
  return null;
}
