/** A timestamptz as raw statements return it (`2026-11-24 12:40:05.213003+00`), or a Date. */
export function pgTimestamp(value: string | Date): Date;
export function pgTimestamp(value: string | Date | null): Date | null;
export function pgTimestamp(value: string | Date | null): Date | null {
  if (value === null || value instanceof Date) return value;
  return new Date(value.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00'));
}
