import {
  condition,
  continueAsNew,
  defineQuery,
  defineSignal,
  proxyActivities,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../activities/index.ts';
import {
  REGISTRY_NUDGE_SIGNAL,
  REGISTRY_PROGRESS_QUERY,
  type RegistryInput,
  type RegistryProgress,
} from '../src/processes/registry.ts';
import { searchAttributes } from '../src/processes/search-attributes.ts';
import { databaseStep } from './activity-options.ts';

export const registryNudgeSignal = defineSignal(REGISTRY_NUDGE_SIGNAL);
export const registryProgressQuery = defineQuery<RegistryProgress>(REGISTRY_PROGRESS_QUERY);

const records = proxyActivities<Activities>(databaseStep());
// Durable retries with no end: the registry down for days delays registrations, never loses one. The call
// carries its idempotency key, so a retry after a lost answer registers nothing twice.
const registry = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: {
    initialInterval: '2 seconds',
    backoffCoefficient: 2,
    maximumInterval: '10 minutes',
    nonRetryableErrorTypes: ['DomainError'],
  },
});

/** How long a drained run waits for more intents before it completes (the dispatcher starts a new one later). */
const LINGER = '30 seconds';

/**
 * Registers one passport in the EU DPP registry (id `registry:{env}:{serviceUid}`; docs/registry.md): sends its
 * intents one at a time in the order they were written. A refusal stops the queue there: the workflow flags
 * itself (`DppAttention = "registration_refused"`, `refused` in its progress query) and waits for the nudge
 * signal, which the dispatcher sends when the passport has a new intent or the brand asks for a retry; it then
 * sends the refused intent again, built from the data as it is then.
 */
export async function registerPassport(input: RegistryInput): Promise<{ sent: number }> {
  let nudged = false;
  let progress: RegistryProgress = { sent: 0, registryId: null, refused: null };
  setHandler(registryNudgeSignal, () => {
    nudged = true;
  });
  setHandler(registryProgressQuery, () => progress);
  for (;;) {
    nudged = false;
    const intentId = await records.nextRegistryIntent(input);
    if (intentId === null) {
      if (await condition(() => nudged, LINGER)) continue;
      return { sent: progress.sent };
    }
    const step = await registry.sendRegistryIntent({ ...input, intentId });
    if (step.outcome === 'gone') return { sent: progress.sent };
    if (step.outcome === 'refused') {
      progress = { ...progress, refused: { reason: step.reason } };
      upsertSearchAttributes([{ key: searchAttributes.attention, value: 'registration_refused' }]);
      await condition(() => nudged);
      upsertSearchAttributes([{ key: searchAttributes.attention, value: null }]);
      progress = { ...progress, refused: null };
      continue;
    }
    progress = { ...progress, sent: progress.sent + 1, registryId: step.registryId };
    if (workflowInfo().continueAsNewSuggested) await continueAsNew<typeof registerPassport>(input);
  }
}
