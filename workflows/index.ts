// Every workflow the worker runs. Deterministic code only: imports @temporalio/workflow and types.
export { anchorProgressQuery, anchorSupplyChainEvent } from './anchor-event.ts';
export { anchorLevelVersion } from './anchor-level-version.ts';
export { mintPassport, mintProgressQuery } from './mint.ts';
export { recycleProgressQuery, recycleTokenPassport } from './recycle.ts';
export { registerPassport, registryNudgeSignal, registryProgressQuery } from './registry.ts';
export { claimUpdate, paymentSucceededSignal, resalePassport, resaleProgressQuery } from './resale.ts';
export { resalePayout } from './resale-payout.ts';
export { importSpreadsheet } from './spreadsheet-import.ts';
export { deliveryProgressQuery, webhookDelivery } from './webhook-delivery.ts';
