import type { EventType } from '../events/event-types.ts';

/**
 * Actions a client may log through POST /v1/iaas/log-event. MINT, AUTHORIZE_CLAIM, CLAIM_OWNERSHIP and
 * RECYCLE_TRANSFER are written by our own workflows only.
 */
export const LOGGABLE_ACTIONS = [
  'QC_PASSED',
  'EXPORT_CLEARED',
  'IMPORT_CLEARED',
  'CUSTOMS_CLEARED',
  'SHIPPED',
  'DELIVERED',
  'INITIAL_SALE',
  'SOLD',
] as const;

export type LoggableAction = (typeof LOGGABLE_ACTIONS)[number];

/** The webhook an anchored action announces; `data.action` always carries the action as logged. */
const WEBHOOK_OF_ACTION: Partial<Record<LoggableAction, EventType>> = {
  EXPORT_CLEARED: 'asset.customs_cleared',
  IMPORT_CLEARED: 'asset.customs_cleared',
  CUSTOMS_CLEARED: 'asset.customs_cleared',
  SHIPPED: 'asset.shipped',
  DELIVERED: 'asset.delivered',
  INITIAL_SALE: 'asset.sold',
  SOLD: 'asset.sold',
};

export function webhookForAction(action: string): EventType | undefined {
  return WEBHOOK_OF_ACTION[action as LoggableAction];
}
