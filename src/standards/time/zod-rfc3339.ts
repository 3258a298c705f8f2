import { z } from 'zod';
import { isRfc3339DateTime, isRfc3339FullDate } from './rfc3339.ts';

/** A request member holding a date (`YYYY-MM-DD`), checked by the service's one rule (rfc3339.ts). */
export const fullDateField = () =>
  z
    .string()
    .refine(isRfc3339FullDate, { message: 'must be a real calendar date, YYYY-MM-DD (RFC 3339 full-date)' })
    .meta({ format: 'date' });

/** A request member holding a date-time with offset, checked by the service's one rule (rfc3339.ts). */
export const dateTimeField = () =>
  z
    .string()
    .refine(isRfc3339DateTime, {
      message: 'must be a real instant, YYYY-MM-DDThh:mm:ss[.fraction] with Z or ±hh:mm (RFC 3339 date-time)',
    })
    .meta({ format: 'date-time' });
