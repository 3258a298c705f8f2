import { canonicalJson } from '../../../standards/ipfs/json.ts';
import { APPENDED } from './battery-dynamic.ts';

type Data = Record<string, unknown>;

const object = (value: unknown): Data | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Data) : undefined;

/**
 * The battery data a PUT without If-Match stores (docs/battery-passport.md, "Rewriting the data"): the body,
 * except that the use data the dynamic operation appends is never lost to a body prepared from an older read:
 * - `negativeEvents` and `accidentReports` are append-only: every stored item stays (in its place), the
 *   body's items not stored yet are appended after them;
 * - a body without `batteryCondition` keeps the stored one;
 * - measured values older (`measuredAt`) than the stored ones do not replace them.
 * Removing appended items takes a PUT with a matching If-Match (the writer saw them), which is anchored.
 */
export function keepBatteryUseData(stored: Data, body: Data): Data {
  const kept = object(object(stored.performanceAndDurability)?.batteryCondition);
  const performance = object(body.performanceAndDurability);
  if (!kept || !performance) return body;
  const next = structuredClone(body);
  const nextPerformance = next.performanceAndDurability as Data;
  const written = object(performance.batteryCondition);
  if (!written) {
    nextPerformance.batteryCondition = structuredClone(kept);
    return next;
  }
  const measured = ([key]: [string, unknown]) => !(APPENDED as readonly string[]).includes(key);
  const older = Date.parse(String(written.measuredAt)) < Date.parse(String(kept.measuredAt));
  const condition: Data = Object.fromEntries(Object.entries(older ? kept : written).filter(measured));
  for (const name of APPENDED) {
    const list = appendOnly(kept[name], written[name]);
    if (list.length > 0 || name in written) condition[name] = list;
  }
  nextPerformance.batteryCondition = condition;
  return next;
}

/** The stored items in their order, then the written items that are not among them (counted, by value). */
function appendOnly(stored: unknown, written: unknown): unknown[] {
  const before = Array.isArray(stored) ? stored : [];
  const remaining = new Map<string, number>();
  for (const item of before) {
    const key = canonicalJson(item);
    remaining.set(key, (remaining.get(key) ?? 0) + 1);
  }
  const added = (Array.isArray(written) ? written : []).filter((item) => {
    const key = canonicalJson(item);
    const left = remaining.get(key) ?? 0;
    if (left > 0) remaining.set(key, left - 1);
    return left === 0;
  });
  return [...structuredClone(before), ...added];
}
