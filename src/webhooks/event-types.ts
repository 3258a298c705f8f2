/** The spec's nine webhook event types. */
export const EVENT_TYPES = [
  'asset.initialized',
  'asset.minted',
  'asset.customs_cleared',
  'asset.shipped',
  'asset.delivered',
  'asset.sold',
  'asset.transferred',
  'asset.resold',
  'asset.recycled',
  'resale.payment_refund_failed', // extension: a refused resale payment Stripe would not refund (docs/resale.md)
  // extensions: transfer of responsibility between economic operators (EN 18239, docs/exit.md)
  'passport.transfer_offered',
  'passport.transfer_declined',
  'passport.transfer_withdrawn',
  'passport.operator_transferred',
  'registry.registration_refused', // extension: the EU DPP registry refused a registration (docs/registry.md)
  'asset.suspicious_activity', // extension: a counterfeit signal from the chips' taps (docs/signals.md)
] as const;

export type EventType = (typeof EVENT_TYPES)[number];
