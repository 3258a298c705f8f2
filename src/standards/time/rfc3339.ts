/**
 * The one rule for dates and date-times the service accepts on every write path: an RFC 3339 `full-date` or
 * `date-time` that names a real day and instant, limited to what XML Schema's xs:date / xs:dateTime also accept
 * (the AAS submodels serve these values as such, unchanged):
 * - years 0001–9999 (xs:dateTime 1.0 has no year 0000; no product date falls in it);
 * - months 01–12, days within the month by the Gregorian rules (29 February only in leap years);
 * - hours 00–23, minutes 00–59, seconds 00–59: no leap second 60 (xs:dateTime refuses it, and neither the database
 *   nor JavaScript can hold it);
 * - optional fraction of 1 to 9 digits;
 * - offset `Z` or ±hh:mm within ±14:00 (xs:dateTime's range, holding every real time zone), upper-case `T` and `Z`.
 * See docs/api-conventions.md ("Dates and times").
 */
const FULL_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:Z|[+-](\d{2}):(\d{2}))$/;

export function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export function daysInMonth(year: number, month: number): number {
  return month === 2 && isLeapYear(year) ? 29 : DAYS[month - 1]!;
}

/** `YYYY-MM-DD` naming a real day. */
export function isRfc3339FullDate(value: string): boolean {
  const match = FULL_DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/** `YYYY-MM-DDThh:mm:ss[.fraction](Z|±hh:mm)` naming a real instant. */
export function isRfc3339DateTime(value: string): boolean {
  const match = DATE_TIME.exec(value);
  if (!match || !isRfc3339FullDate(match[1]!)) return false;
  const [hour, minute, second] = [Number(match[2]), Number(match[3]), Number(match[4])];
  if (hour > 23 || minute > 59 || second > 59) return false;
  if (match[5] === undefined) return true;
  const [offsetHours, offsetMinutes] = [Number(match[5]), Number(match[6])];
  return offsetMinutes <= 59 && (offsetHours < 14 || (offsetHours === 14 && offsetMinutes === 0));
}
