import type { EntityManager } from '@mikro-orm/postgresql';
import type { WorkflowGateway } from '../../adapters/temporal/start.ts';
import type { Environment } from '../../platform/config/config.ts';
import type { Orm } from '../../platform/db/orm.ts';
import type { Logger } from '../../platform/logging/logger.ts';
import { REGISTRY_NUDGE_SIGNAL, REGISTRY_WORKFLOW, type RegistryInput } from '../../processes/registry.ts';
import { searchAttributePairs } from '../../processes/search-attributes.ts';
import { taskQueueFor } from '../../processes/task-queues.ts';
import { workflowIds } from '../../processes/workflow-ids.ts';

interface Row {
  registration_id: string;
  company_id: string;
  environment: Environment;
  dpp_service_uid: string;
  intent_ids: (string | number)[];
}

// Undispatched intents, oldest first, grouped by registration; `skip locked`: several dispatchers share the work.
const UNDISPATCHED = `
  with taken as (
    select i.id, i.registration_id from registry_intents i
    join registry_registrations r on r.id = i.registration_id
    where i.state = 'pending' and i.dispatched_at is null and r.environment in (?)
    order by i.id limit ? for update of i skip locked
  )
  select r.id as registration_id, r.company_id, r.environment, r.dpp_service_uid,
    array_agg(t.id order by t.id) as intent_ids
  from taken t join registry_registrations r on r.id = t.registration_id
  group by r.id, r.company_id, r.environment, r.dpp_service_uid`;

/**
 * Hands a passport's new intents to its registry workflow: signal-with-start of `registry:{env}:{serviceUid}`
 * (the run going gets the nudge, or a new run starts), then the intents are marked dispatched, in the
 * transaction that locked them. A crash before the commit leaves them undispatched: the next pass nudges again,
 * which is harmless (the workflow reads its queue from the database).
 */
export async function dispatchRegistryIntents(
  orm: Orm,
  gateway: WorkflowGateway,
  environments: Environment[],
  batchSize = 200,
): Promise<number> {
  if (environments.length === 0) return 0;
  return orm.em.fork({ disableContextResolution: true }).transactional(async (tx) => {
    const rows = await tx.execute<Row[]>(UNDISPATCHED, [environments, batchSize]);
    for (const row of rows) await nudge(gateway, row);
    const ids = rows.flatMap((row) => row.intent_ids.map(Number));
    if (ids.length > 0)
      await tx.execute('update registry_intents set dispatched_at = now() where id in (?)', [ids]);
    return ids.length;
  });
}

/** Asks for a retry of a refused (or waiting) registration: its pending intents are handed over again. */
export async function requestRegistryRetry(
  em: EntityManager,
  environment: Environment,
  serviceUid: string,
): Promise<number> {
  const rows = await em.execute<{ id: string }[]>(
    `update registry_intents i set dispatched_at = null from registry_registrations r
       where r.id = i.registration_id and r.environment = ? and r.dpp_service_uid = ? and i.state = 'pending'
       returning i.id`,
    [environment, serviceUid],
  );
  return rows.length;
}

async function nudge(gateway: WorkflowGateway, row: Row): Promise<void> {
  const input: RegistryInput = {
    scope: { companyId: row.company_id, environment: row.environment },
    registrationId: row.registration_id,
  };
  await gateway.client.workflow.signalWithStart(REGISTRY_WORKFLOW, {
    workflowId: workflowIds.registry(row.environment, row.dpp_service_uid),
    taskQueue: taskQueueFor(gateway.taskQueuePrefix, row.environment),
    args: [input],
    signal: REGISTRY_NUDGE_SIGNAL,
    signalArgs: [],
    workflowIdReusePolicy: 'ALLOW_DUPLICATE',
    staticSummary: `EU registry registration of ${row.dpp_service_uid}`,
    typedSearchAttributes: searchAttributePairs({ environment: row.environment, company: row.company_id }),
  });
}

/** Runs in the worker: a dispatch pass at least every `intervalMs` (back to back while full batches come). */
export function startRegistryDispatcher(options: {
  orm: Orm;
  gateway: WorkflowGateway;
  logger: Logger;
  environments: Environment[];
  intervalMs?: number;
}): { stop(): Promise<void> } {
  const logger = options.logger.child({ component: 'registry-dispatcher' });
  let stopping = false;
  let wake: (() => void) | undefined;
  const loop = (async () => {
    while (!stopping) {
      let dispatched = 0;
      try {
        dispatched = await dispatchRegistryIntents(options.orm, options.gateway, options.environments);
      } catch (error) {
        if (!stopping) logger.warn({ err: error }, 'registry dispatch failed; retrying');
      }
      if (dispatched < 200 && !stopping) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, options.intervalMs ?? 500);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    }
  })();
  return {
    async stop() {
      stopping = true;
      wake?.();
      await loop;
    },
  };
}
