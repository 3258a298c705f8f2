// Every workflow the worker runs. Deterministic code only: imports @temporalio/workflow and types.
export { mintPassport, mintProgressQuery } from './mint.ts';
export { deliveryProgressQuery, webhookDelivery } from './webhook-delivery.ts';
