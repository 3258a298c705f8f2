/**
 * A strict reader of the Prometheus text exposition format (version 0.0.4) for tests: every line must be a
 * HELP, a TYPE or a sample; every sample belongs to a family TYPEd before it; a family's lines are contiguous
 * and TYPEd once; label names are valid and not repeated, values properly escaped; histograms have
 * non-decreasing cumulative buckets ending in `le="+Inf"` equal to `_count`, and a `_sum`. Throws on the
 * first violation, naming the line.
 */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  name: string;
  type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';
  help?: string;
  samples: Sample[];
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

// Prometheus reads values with Go's strconv.ParseFloat, which takes NaN and Inf in any case; prom-client writes
// NaN as "Nan" (the event-loop lag gauges before their first sample), so this parser is exactly that lenient.
function parseValue(raw: string, line: string): number {
  if (/^\+?inf(inity)?$/i.test(raw)) return Number.POSITIVE_INFINITY;
  if (/^-inf(inity)?$/i.test(raw)) return Number.NEGATIVE_INFINITY;
  if (/^nan$/i.test(raw)) return Number.NaN;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(raw)) throw new Error(`bad value in: ${line}`);
  return Number(raw);
}

function parseLabels(raw: string, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  let rest = raw;
  while (rest.length > 0) {
    const match = /^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"(,?)/.exec(rest);
    if (!match) throw new Error(`bad labels in: ${line}`);
    const [whole, name, value, comma] = match as unknown as [string, string, string, string];
    if (!LABEL_NAME.test(name) || name in labels)
      throw new Error(`bad or repeated label ${name} in: ${line}`);
    labels[name] = value.replace(/\\(["\\n])/g, (_, c: string) => (c === 'n' ? '\n' : c));
    rest = rest.slice(whole.length);
    if (!comma && rest.length > 0) throw new Error(`labels not comma-separated in: ${line}`);
  }
  return labels;
}

function familyOf(sampleName: string, families: Map<string, Family>): Family | undefined {
  const exact = families.get(sampleName);
  if (exact) return exact;
  for (const suffix of ['_bucket', '_sum', '_count', '_total']) {
    if (!sampleName.endsWith(suffix)) continue;
    const family = families.get(sampleName.slice(0, -suffix.length));
    if (!family) continue;
    if (suffix === '_total' && family.type === 'counter') return family;
    if (suffix !== '_total' && (family.type === 'histogram' || family.type === 'summary')) {
      if (suffix === '_bucket' && family.type !== 'histogram') continue;
      return family;
    }
  }
  return undefined;
}

export function parseExposition(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const closed = new Set<string>();
  let current: Family | undefined;
  const enter = (family: Family) => {
    if (current === family) return;
    if (closed.has(family.name)) throw new Error(`family ${family.name} is not contiguous`);
    if (current) closed.add(current.name);
    current = family;
  };
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('#')) {
      const comment = /^# (HELP|TYPE) ([^ ]+) ?(.*)$/.exec(line);
      if (!comment) {
        if (/^# (HELP|TYPE)\b/.test(line)) throw new Error(`malformed: ${line}`);
        continue;
      }
      const [, kind, name, rest] = comment as unknown as [string, string, string, string];
      if (!METRIC_NAME.test(name)) throw new Error(`bad metric name: ${line}`);
      let family = families.get(name);
      if (!family) {
        family = { name, type: 'untyped', samples: [] };
        families.set(name, family);
      }
      enter(family);
      if (kind === 'TYPE') {
        if (!TYPES.has(rest)) throw new Error(`bad type: ${line}`);
        if (family.samples.length > 0 || (family as { typed?: boolean }).typed)
          throw new Error(`TYPE repeated or after samples: ${line}`);
        family.type = rest as Family['type'];
        (family as { typed?: boolean }).typed = true;
      } else {
        if (family.help !== undefined) throw new Error(`HELP repeated: ${line}`);
        family.help = rest;
      }
      continue;
    }
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? ([^ ]+)(?: (-?\d+))?$/.exec(line);
    if (!sample) throw new Error(`not a sample: ${line}`);
    const [, name, rawLabels, rawValue] = sample as unknown as [string, string, string | undefined, string];
    const family = familyOf(name, families);
    if (!family || !(family as { typed?: boolean }).typed) throw new Error(`sample without TYPE: ${line}`);
    enter(family);
    const labels = parseLabels(rawLabels ?? '', line);
    if (name.endsWith('_bucket') && family.type === 'histogram' && labels.le === undefined)
      throw new Error(`bucket without le: ${line}`);
    family.samples.push({ name, labels, value: parseValue(rawValue, line) });
  }
  for (const family of families.values()) if (family.type === 'histogram') checkHistogram(family);
  return families;
}

function seriesKey(labels: Record<string, string>): string {
  return JSON.stringify(
    Object.entries(labels)
      .filter(([name]) => name !== 'le')
      .sort(),
  );
}

function checkHistogram(family: Family): void {
  const series = new Map<string, { buckets: [number, number][]; count?: number; sum?: number }>();
  for (const sample of family.samples) {
    const key = seriesKey(sample.labels);
    const entry = series.get(key) ?? { buckets: [] };
    series.set(key, entry);
    if (sample.name === `${family.name}_bucket`)
      entry.buckets.push([parseValue(sample.labels.le!, sample.labels.le!), sample.value]);
    else if (sample.name === `${family.name}_count`) entry.count = sample.value;
    else if (sample.name === `${family.name}_sum`) entry.sum = sample.value;
    else throw new Error(`unexpected sample ${sample.name} in histogram ${family.name}`);
  }
  for (const [key, entry] of series) {
    const sorted = [...entry.buckets].sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < sorted.length; i++)
      if (sorted[i]![1] < sorted[i - 1]![1]) throw new Error(`${family.name}${key}: buckets decrease`);
    const last = sorted.at(-1);
    if (!last || last[0] !== Number.POSITIVE_INFINITY)
      throw new Error(`${family.name}${key}: no +Inf bucket`);
    if (entry.count === undefined || entry.sum === undefined)
      throw new Error(`${family.name}${key}: _count or _sum missing`);
    if (last[1] !== entry.count) throw new Error(`${family.name}${key}: +Inf bucket ≠ _count`);
  }
}

/** The value of the one sample named `name` whose labels include `labels`; undefined when there is none. */
export function sampleValue(
  families: Map<string, Family>,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  for (const family of families.values()) {
    for (const sample of family.samples) {
      if (sample.name !== name) continue;
      if (Object.entries(labels).every(([k, v]) => sample.labels[k] === v)) return sample.value;
    }
  }
  return undefined;
}
