import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { QUICK } from '../quick.ts';
import { collected, type Figure } from './figures.ts';
import { benchSourcesHash } from './sources.ts';
import { barChart, lineChart } from './svg.ts';

const DOCS = fileURLToPath(new URL('../../docs/', import.meta.url));
const CHARTS = 'benchmarks';
const BIOME = fileURLToPath(new URL('../../node_modules/.bin/biome', import.meta.url));

const number = (value: number) =>
  !Number.isFinite(value) ? 'n/a' : value >= 100 ? Math.round(value).toLocaleString('en') : value.toFixed(2);

function commit(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

function targetValue(figure: Figure): number | null {
  const match = /[≥≤] ([\d.]+)/.exec(figure.target ?? '');
  return match ? Number(match[1]) : null;
}

/** The machine as the page states it, with its load when the run started and ended. */
export interface RunContext {
  startedAt: Date;
  loadAtStart: number[];
}

export function runContext(): RunContext {
  return { startedAt: new Date(), loadAtStart: loadavg() };
}

/**
 * `npm run bench -- --report`: writes docs/benchmarks.md and its charts (docs/benchmarks/*.svg) from what the
 * run collected (bench/report/figures.ts), with the machine, the date, the commit and the hash of the bench code
 * that wrote it.
 */
export function writeBenchmarksPage(context: RunContext): string {
  mkdirSync(`${DOCS}${CHARTS}`, { recursive: true });
  const charts: string[] = [];
  const figures = collected.figures;
  writeFileSync(
    `${DOCS}${CHARTS}/ratios.svg`,
    barChart({
      title: 'Each bench: ours ÷ its baseline (cost benches: ours ÷ reference, lower is better)',
      desc: figures
        .map((f) => `${f.name}: ${number(f.ratio)}${f.target ? ` (target ${f.target})` : ''}`)
        .join('; '),
      rows: figures.map((f) => ({ label: f.name, value: f.ratio, target: targetValue(f), met: f.met })),
      unit: 'ratio',
    }),
  );
  charts.push(`![Ratios of every bench against its baseline](${CHARTS}/ratios.svg)`);
  if (collected.growth.length > 0) {
    writeFileSync(
      `${DOCS}${CHARTS}/volume-growth.svg`,
      lineChart({
        title: 'Cost of each request as the company grows: p50 ÷ its p50 at one page',
        desc: collected.growth
          .map(
            (s) =>
              `${s.name}: ${s.points.map((p) => `${p.p50Ms.toFixed(1)} ms at ${p.passports}`).join(', ')}`,
          )
          .join('; '),
        xLabel: 'passports of the company (log scale)',
        yLabel: 'p50 ÷ p50 at one page',
        guide: 2,
        guideLabel: 'target: at most 2×',
        series: collected.growth.map((s) => ({
          name: s.name,
          points: s.points.map((p) => ({ x: p.passports, y: p.p50Ms / s.points[0]!.p50Ms })),
        })),
      }),
    );
    charts.push(`![Cost of each request as the company grows](${CHARTS}/volume-growth.svg)`);
  }
  if (collected.gas.length > 0 && collected.singleMintGas) {
    const single = collected.singleMintGas;
    writeFileSync(
      `${DOCS}${CHARTS}/gas-per-passport.svg`,
      barChart({
        title: `Gas per passport by passports per transaction (a single mint: ${number(single)} gas)`,
        desc: collected.gas
          .map(
            (g) =>
              `${g.batchSize} per transaction: ${number(g.gasPerPassport)} gas (${g.transactions} transactions)`,
          )
          .join('; '),
        rows: collected.gas.map((g) => ({
          label: `${g.batchSize} per transaction (${g.transactions} tx)`,
          value: g.gasPerPassport / single,
          target: 0.2,
          met: null,
        })),
        unit: 'gas per passport ÷ a single mint (target ≤ 0.2 at 100 per transaction)',
      }),
    );
    charts.push(`![Gas per passport by batch size](${CHARTS}/gas-per-passport.svg)`);
  }

  const cpu = cpus();
  const load = loadavg();
  const lines = [
    '# Benchmarks',
    '',
    'Written by `npm run bench -- --report` (do not edit by hand: run it again). Every figure is measured next to',
    'its baseline in the same run, on the same machine, so read the ratios, not the rates: the rates depend on the',
    'machine and on what else it was doing. How each bench works: [operations.md](operations.md), "Benchmarks".',
    '',
    ...(QUICK
      ? [
          '- **A quick run** (`--quick`, the sizes CI uses): these figures are too small to be read; run',
          '  `npm run bench -- --report` for the page.',
        ]
      : []),
    `- **Date:** ${context.startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC (commit ${commit()})`,
    `- **Machine:** ${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`,
    `- **Load average (1/5/15 min):** ${context.loadAtStart.map((l) => l.toFixed(1)).join(' / ')} at the start, ${load.map((l) => l.toFixed(1)).join(' / ')} at the end (a load above the core count means other processes shared the machine)`,
    '',
    '## Where we stand',
    '',
    '| bench | figure | ours | baseline | unit | ratio | target | met |',
    '|---|---|---:|---:|---|---:|---|---|',
    ...figures.map(
      (f) =>
        `| ${f.bench} | ${f.name} | ${number(f.ours)} | ${number(f.baseline)} | ${f.unit} | **${number(f.ratio)}** | ${f.target ?? '—'} | ${f.met === null ? '—' : f.met ? 'yes' : '**no**'} |`,
    ),
    '',
    ...charts.flatMap((chart) => [chart, '']),
    '## Every table the benches printed',
    '',
    ...collected.tables.flatMap((table) => [
      `### ${table.title}`,
      '',
      '```text',
      ...table.rows.map(([key, value]) => `${key.padEnd(48)} ${value}`),
      '```',
      '',
    ]),
    `<!-- bench sources sha256: ${benchSourcesHash()} -->`,
    '',
  ];
  const path = `${DOCS}benchmarks.md`;
  writeFileSync(path, lines.join('\n'));
  // The repository's formatter lays out Markdown tables; the page is written as `npx biome check` wants it.
  execFileSync(BIOME, ['format', '--write', path], { stdio: 'ignore' });
  return path;
}
