import { DomainError } from '../../../platform/errors.ts';
import type { ContentWriterRole } from '../content-writer.ts';

/**
 * The one rule of a battery's status over its life (docs/battery-passport.md, "Status"), applied on every
 * write path (PUT of the data, dynamic data, repurposing) and by any future one:
 * - `waste` is final: the status of a waste battery no longer changes (409 battery_status_final);
 * - nothing returns to `original` once reused, repurposed or remanufactured (409 battery_status_final);
 * - `waste` is declared by the brand or a company it granted `recycler`, never by a repairer
 *   (403 waste_declaration_forbidden).
 * `from` is the stored status (undefined before the first write), `to` the status after the write.
 */
export function batteryStatusRefusal(
  from: unknown,
  to: unknown,
  role: ContentWriterRole,
): DomainError | undefined {
  if (to === undefined || from === to) return undefined;
  if (from === 'waste') {
    return new DomainError(
      'conflict',
      'battery_status_final',
      'The battery is waste: its status no longer changes.',
    );
  }
  if (to === 'original' && from !== undefined) {
    return new DomainError(
      'conflict',
      'battery_status_final',
      `A ${String(from)} battery does not become original again.`,
    );
  }
  if (to === 'waste' && role === 'repairer') {
    return new DomainError(
      'forbidden',
      'waste_declaration_forbidden',
      'Waste is declared by the brand or a company it granted recycler, not by a repairer.',
    );
  }
  return undefined;
}
