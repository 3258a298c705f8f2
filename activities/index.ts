import type { EnvironmentDeps } from './deps.ts';
import { levelAnchorActivities } from './levels/level-anchor-activities.ts';
import { mintActivities } from './mint/mint-activities.ts';
import { importActivities } from './provision/import-activities.ts';
import { recycleActivities } from './recycling/recycle-activities.ts';
import { registryActivities } from './registry/registry-activities.ts';
import { resaleChainActivities } from './resale/resale-chain-activities.ts';
import { resalePaymentActivities } from './resale/resale-payment-activities.ts';
import { resaleRecordActivities } from './resale/resale-record-activities.ts';
import { anchorActivities } from './supply-chain/anchor-activities.ts';
import { webhookActivities } from './webhooks/webhook-activities.ts';

export type { EnvironmentDeps } from './deps.ts';

/** All activities of one environment's task queue, built from injected dependencies. */
export function createActivities(deps: EnvironmentDeps) {
  return {
    ...mintActivities(deps),
    ...recycleActivities(deps),
    ...webhookActivities(deps),
    ...anchorActivities(deps),
    ...levelAnchorActivities(deps),
    ...resaleChainActivities(deps),
    ...resalePaymentActivities(deps),
    ...resaleRecordActivities(deps),
    ...registryActivities(deps),
    ...importActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
