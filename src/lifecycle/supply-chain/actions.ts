import type { EventType } from '../../webhooks/event-types.ts';

/**
 * Actions a client may log through POST /v1/iaas/log-event. MINT, AUTHORIZE_CLAIM, CLAIM_OWNERSHIP and
 * RECYCLE_TRANSFER are written by our own workflows only, PRODUCT_DATA_UPDATED by every write of product-group
 * data (src/passport/content/product-data-change.ts).
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

/**
 * The webhook an anchored action announces and the `data.action` it carries: the spec's value for the event
 * type (asset.customs_cleared → CUSTOMS_CLEARED, asset.sold → SOLD), whichever action was logged; the logged
 * one travels in `data.loggedAction` (EXPORT_CLEARED, INITIAL_SALE, …).
 */
const WEBHOOK_OF_ACTION: Partial<Record<LoggableAction, { eventType: EventType; action: string }>> = {
  EXPORT_CLEARED: { eventType: 'asset.customs_cleared', action: 'CUSTOMS_CLEARED' },
  IMPORT_CLEARED: { eventType: 'asset.customs_cleared', action: 'CUSTOMS_CLEARED' },
  CUSTOMS_CLEARED: { eventType: 'asset.customs_cleared', action: 'CUSTOMS_CLEARED' },
  SHIPPED: { eventType: 'asset.shipped', action: 'SHIPPED' },
  DELIVERED: { eventType: 'asset.delivered', action: 'DELIVERED' },
  INITIAL_SALE: { eventType: 'asset.sold', action: 'SOLD' },
  SOLD: { eventType: 'asset.sold', action: 'SOLD' },
};

export function webhookForAction(action: string): { eventType: EventType; action: string } | undefined {
  return WEBHOOK_OF_ACTION[action as LoggableAction];
}

/** A sale at the point of sale: the first one starts the warranty period (the spec's asset.sold). */
export function isSale(action: string): boolean {
  return action === 'SOLD' || action === 'INITIAL_SALE';
}
