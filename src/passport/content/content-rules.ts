import type { DomainError } from '../../platform/errors.ts';
import { keepBatteryUseData } from './battery/battery-kept.ts';
import { batteryStatusRefusal } from './battery/battery-status.ts';
import type { ContentWriterRole } from './content-writer.ts';

type Data = Record<string, unknown>;

/** What a product group's data may not do over the passport's life, whatever the write path. */
interface ProductGroupRules {
  /** The refusal of a change from `before` (undefined: first write) to `after` by `role`, if refused. */
  refusal(before: Data | undefined, after: Data, role: ContentWriterRole): DomainError | undefined;
  /** The data a PUT without If-Match stores: the body with the anchored appended data kept. */
  keep(stored: Data, body: Data): Data;
}

const statusOf = (data: Data | undefined) =>
  (data?.generalProductInformation as Data | undefined)?.batteryStatus;

const RULES: Readonly<Record<string, ProductGroupRules>> = {
  battery: {
    refusal: (before, after, role) =>
      batteryStatusRefusal(before === undefined ? undefined : statusOf(before), statusOf(after), role),
    keep: keepBatteryUseData,
  },
};

/**
 * Throws when the product group's rules refuse this change (battery: waste is final, nothing returns to
 * original, repairers do not declare waste). Every write of product-group data calls it, with the stored data
 * and the data it is about to store: PUT, dynamic data, repurposing, and whatever writes them next.
 */
export function enforceContentRules(
  group: string,
  before: Data | undefined,
  after: Data,
  role: ContentWriterRole,
): void {
  const refusal = RULES[group]?.refusal(before, after, role);
  if (refusal) throw refusal;
}

/** The data a PUT without If-Match stores over `stored` (groups without append-only data: the body). */
export function keepAnchoredData(group: string, stored: Data, body: Data): Data {
  return RULES[group]?.keep(stored, body) ?? body;
}
