// Small, dependency-free SVG charts for docs/benchmarks.md: text in the SVG is real text (readable, searchable),
// colours keep a 4.5:1 contrast on white, and each chart has a <title> and <desc> for screen readers.

const FONT = 'font-family="system-ui, -apple-system, Segoe UI, sans-serif" font-size="12"';
const MET = '#1a7f37';
const MISSED = '#b3261e';
const NEUTRAL = '#44546a';
const GRID = '#d0d7de';

const xmlText = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function frame(width: number, height: number, title: string, desc: string, body: string[]): string {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="t d">`,
    `<title id="t">${xmlText(title)}</title>`,
    `<desc id="d">${xmlText(desc)}</desc>`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    ...body,
    '</svg>',
    '',
  ].join('\n');
}

/** Horizontal bars: one per row, its value, and its target as a tick when it has one. */
export function barChart(options: {
  title: string;
  desc: string;
  rows: { label: string; value: number; target?: number | null; met?: boolean | null }[];
  unit: string;
}): string {
  const labelWidth = Math.max(200, ...options.rows.map((row) => row.label.length * 6.6 + 20));
  const plotWidth = 300;
  const rowHeight = 26;
  const top = 34;
  const footer = `${options.unit}. Black tick: the target; green ✓ met, red ✗ missed, grey: no target (or not at this size).`;
  const width = Math.max(labelWidth + plotWidth + 90, footer.length * 6.6 + 20);
  const height = top + options.rows.length * rowHeight + 30;
  const finite = options.rows.flatMap((row) => [row.value, row.target ?? 0]).filter(Number.isFinite);
  const max = Math.max(1, ...finite) * 1.05;
  const x = (value: number) => labelWidth + (Math.max(0, value) / max) * plotWidth;
  const body = [
    `<text x="10" y="20" ${FONT} font-weight="600" fill="#1f2328">${xmlText(options.title)}</text>`,
    `<line x1="${labelWidth}" y1="${top - 6}" x2="${labelWidth}" y2="${height - 24}" stroke="${GRID}"/>`,
  ];
  for (const [i, row] of options.rows.entries()) {
    const y = top + i * rowHeight;
    const colour = row.met === true ? MET : row.met === false ? MISSED : NEUTRAL;
    const value = Number.isFinite(row.value) ? row.value : 0;
    body.push(
      `<text x="${labelWidth - 8}" y="${y + 14}" ${FONT} text-anchor="end" fill="#1f2328">${xmlText(row.label)}</text>`,
      `<rect x="${labelWidth}" y="${y + 3}" width="${(x(value) - labelWidth).toFixed(1)}" height="16" fill="${colour}"/>`,
      `<text x="${(x(value) + 6).toFixed(1)}" y="${y + 15}" ${FONT} fill="#1f2328">${Number.isFinite(row.value) ? row.value.toFixed(2) : 'n/a'}${row.met === true ? ' ✓' : row.met === false ? ' ✗' : ''}</text>`,
    );
    if (row.target != null && Number.isFinite(row.target)) {
      const tx = x(row.target).toFixed(1);
      body.push(`<line x1="${tx}" y1="${y}" x2="${tx}" y2="${y + 22}" stroke="#1f2328" stroke-width="2"/>`);
    }
  }
  body.push(`<text x="10" y="${height - 8}" ${FONT} fill="#57606a">${xmlText(footer)}</text>`);
  return frame(width, height, options.title, options.desc, body);
}

/** Lines over a logarithmic x axis: one per series. */
export function lineChart(options: {
  title: string;
  desc: string;
  xLabel: string;
  yLabel: string;
  series: { name: string; points: { x: number; y: number }[] }[];
  /** A horizontal line (e.g. a target), labelled. */
  guide?: number;
  guideLabel?: string;
}): string {
  const left = 60;
  const plotWidth = 420;
  const plotHeight = 260;
  const top = 52;
  const legendWidth = 280;
  const width = left + plotWidth + legendWidth;
  const height = Math.max(top + plotHeight + 50, top + options.series.length * 16 + 20);
  const points = options.series.flatMap((series) => series.points);
  const xs = points.map((point) => Math.log10(Math.max(1, point.x)));
  const xMin = Math.floor(Math.min(...xs));
  const xMax = Math.max(Math.ceil(Math.max(...xs)), xMin + 1);
  const yMax = Math.max(1, options.guide ?? 0, ...points.map((point) => point.y)) * 1.1;
  const px = (value: number) => left + ((Math.log10(Math.max(1, value)) - xMin) / (xMax - xMin)) * plotWidth;
  const py = (value: number) => top + plotHeight - (value / yMax) * plotHeight;
  const palette = ['#0969da', '#8250df', '#bf3989', '#9a6700', '#1a7f37', '#cf222e', '#0550ae', '#6639ba'];
  const body = [
    `<text x="10" y="20" ${FONT} font-weight="600" fill="#1f2328">${xmlText(options.title)}</text>`,
    `<line x1="${left}" y1="${top + plotHeight}" x2="${left + plotWidth}" y2="${top + plotHeight}" stroke="${GRID}"/>`,
    `<line x1="${left}" y1="${top}" x2="${left}" y2="${top + plotHeight}" stroke="${GRID}"/>`,
  ];
  for (let decade = xMin; decade <= xMax; decade++) {
    const gx = px(10 ** decade).toFixed(1);
    body.push(
      `<text x="${gx}" y="${top + plotHeight + 16}" ${FONT} text-anchor="middle" fill="#57606a">${(10 ** decade).toLocaleString('en')}</text>`,
    );
  }
  for (let i = 0; i <= 4; i++) {
    const value = (yMax / 4) * i;
    body.push(
      `<text x="${left - 6}" y="${(py(value) + 4).toFixed(1)}" ${FONT} text-anchor="end" fill="#57606a">${value.toFixed(yMax < 10 ? 1 : 0)}</text>`,
    );
  }
  if (options.guide !== undefined) {
    const gy = py(options.guide).toFixed(1);
    body.push(
      `<line x1="${left}" y1="${gy}" x2="${left + plotWidth}" y2="${gy}" stroke="#1f2328" stroke-width="1.5" stroke-dasharray="5 3"/>`,
      `<text x="${left + plotWidth - 4}" y="${(Number(gy) - 5).toFixed(1)}" ${FONT} text-anchor="end" fill="#1f2328">${xmlText(options.guideLabel ?? '')}</text>`,
    );
  }
  body.push(
    `<text x="${left + plotWidth / 2}" y="${top + plotHeight + 34}" ${FONT} text-anchor="middle" fill="#1f2328">${xmlText(options.xLabel)}</text>`,
    `<text x="12" y="${top - 10}" ${FONT} fill="#1f2328">${xmlText(options.yLabel)}</text>`,
  );
  for (const [i, series] of options.series.entries()) {
    const colour = palette[i % palette.length]!;
    const path = series.points
      .map((point) => `${px(point.x).toFixed(1)},${py(point.y).toFixed(1)}`)
      .join(' ');
    // Past the palette, the same colours come back dashed, then dotted.
    const dash = ['', ' stroke-dasharray="7 4"', ' stroke-dasharray="2 3"'][
      Math.floor(i / palette.length) % 3
    ];
    body.push(`<polyline points="${path}" fill="none" stroke="${colour}" stroke-width="2"${dash}/>`);
    for (const point of series.points) {
      body.push(
        `<circle cx="${px(point.x).toFixed(1)}" cy="${py(point.y).toFixed(1)}" r="3" fill="${colour}"/>`,
      );
    }
    const ly = top + i * 16;
    body.push(
      `<line x1="${left + plotWidth + 12}" y1="${ly - 4}" x2="${left + plotWidth + 28}" y2="${ly - 4}" stroke="${colour}" stroke-width="2"${dash}/>`,
      `<text x="${left + plotWidth + 32}" y="${ly}" ${FONT} fill="#1f2328">${xmlText(series.name)}</text>`,
    );
  }
  return frame(width, height, options.title, options.desc, body);
}
