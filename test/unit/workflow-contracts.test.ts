import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { ANCHOR_EVENT_WORKFLOW, type AnchorEventWorkflow } from '../../src/processes/anchor-event.ts';
import { MINT_WORKFLOW, type MintWorkflow } from '../../src/processes/mint.ts';
import { RECYCLE_WORKFLOW, type RecycleWorkflow } from '../../src/processes/recycle.ts';
import { RESALE_WORKFLOW, type ResaleWorkflow } from '../../src/processes/resale.ts';
import {
  WEBHOOK_DELIVERY_WORKFLOW,
  type WebhookDeliveryWorkflow,
} from '../../src/processes/webhook-delivery.ts';
import * as workflows from '../../workflows/index.ts';

/**
 * The starters (api/, src/) know a workflow only by its contract in src/processes/: its type name and its
 * signature. Each must name a workflow the worker registers, with that signature (checked by tsc here).
 */
describe('workflow contracts in src/processes', () => {
  const contracts: [string, unknown][] = [
    [MINT_WORKFLOW, workflows.mintPassport satisfies MintWorkflow],
    [RECYCLE_WORKFLOW, workflows.recycleTokenPassport satisfies RecycleWorkflow],
    [ANCHOR_EVENT_WORKFLOW, workflows.anchorSupplyChainEvent satisfies AnchorEventWorkflow],
    [RESALE_WORKFLOW, workflows.resalePassport satisfies ResaleWorkflow],
    [WEBHOOK_DELIVERY_WORKFLOW, workflows.webhookDelivery satisfies WebhookDeliveryWorkflow],
  ];

  test.each(contracts)('%s is the name the worker registers the workflow under', (name, workflow) => {
    assert.equal((workflow as { name: string }).name, name);
  });
});
