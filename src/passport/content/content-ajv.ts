import { Ajv2020 } from 'ajv/dist/2020.js';
import { isRfc3339DateTime, isRfc3339FullDate } from '../../standards/time/rfc3339.ts';

/**
 * The validator every content schema is compiled with: strict, all errors, and the `date` / `date-time` formats
 * asserted by the service's one date rule (a real calendar day and instant, not just the right shape).
 */
export function newContentAjv(): Ajv2020 {
  return new Ajv2020({
    allErrors: true,
    strict: true,
    formats: { date: isRfc3339FullDate, 'date-time': isRfc3339DateTime },
  });
}
