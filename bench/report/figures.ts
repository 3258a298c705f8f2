/**
 * What a bench run measured, kept for `npm run bench -- --report` (bench/report/page.ts): each headline ratio
 * with its baseline and target, the tables the benches print, and the series the charts draw.
 */
export interface Figure {
  bench: string;
  /** What is measured, e.g. "mint ÷ no-op workflow (50 concurrent)". */
  name: string;
  ours: number;
  baseline: number;
  /** Units of ours and baseline, e.g. "mints/s". */
  unit: string;
  ratio: number;
  /** e.g. "≥ 0.8"; null: no target, shown for context. */
  target: string | null;
  met: boolean | null;
}

export interface Table {
  title: string;
  rows: [string, string][];
}

/** One list of the volume bench: its p50 at each size measured. */
export interface GrowthSeries {
  name: string;
  points: { passports: number; p50Ms: number }[];
}

/** Gas per passport of the mint transactions the chain bench saw, by how many passports each carried. */
export interface GasPoint {
  batchSize: number;
  gasPerPassport: number;
  transactions: number;
}

export const collected = {
  figures: [] as Figure[],
  tables: [] as Table[],
  growth: [] as GrowthSeries[],
  gas: [] as GasPoint[],
  singleMintGas: null as number | null,
};

/** Records a headline figure: `ratio` is ours ÷ baseline unless given (a cost ratio, e.g. gas). */
export function recordFigure(
  figure: Omit<Figure, 'ratio' | 'met'> & { ratio?: number; met?: (ratio: number) => boolean },
): void {
  const ratio = figure.ratio ?? figure.ours / figure.baseline;
  collected.figures.push({
    bench: figure.bench,
    name: figure.name,
    ours: figure.ours,
    baseline: figure.baseline,
    unit: figure.unit,
    ratio,
    target: figure.target,
    met: figure.met ? figure.met(ratio) : null,
  });
}

/** `≥ n`: met at n or more. */
export const atLeast = (n: number) => ({ target: `≥ ${n}`, met: (ratio: number) => ratio >= n });
/** `≤ n`: met at n or less. */
export const atMost = (n: number) => ({ target: `≤ ${n}`, met: (ratio: number) => ratio <= n });
