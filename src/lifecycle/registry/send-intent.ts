import type { EntityManager } from '@mikro-orm/postgresql';
import type { RegistryPort } from '../../adapters/registry/registry-port.ts';
import {
  buildRegistrationPayload,
  type PendingIntent,
  type RegistrySettings,
} from '../../passport/registry/build-payload.ts';
import type { Environment } from '../../platform/config/config.ts';
import type { RegistryStep } from '../../processes/registry.ts';
import { recordEvent } from '../../webhooks/outbox.ts';

export const REGISTRATION_REFUSED = 'registry.registration_refused';

interface IntentRow {
  id: string | number;
  registration_id: string;
  company_id: string;
  environment: Environment;
  dpp_service_uid: string;
  granularity: PendingIntent['granularity'];
  registry_id: string | null;
  version_number: number;
  version_sha256: string;
  version_recorded_at: Date;
  dpp_status: PendingIntent['dppStatus'];
  state: 'pending' | 'sent';
}

const INTENT_COLUMNS = `i.id, i.registration_id, r.company_id, r.environment, r.dpp_service_uid, r.granularity,
  r.registry_id, i.version_number, i.version_sha256, i.version_recorded_at, i.dpp_status, i.state`;

const toIntent = (row: IntentRow): PendingIntent => ({
  intentId: Number(row.id),
  registrationId: row.registration_id,
  companyId: row.company_id,
  environment: row.environment,
  serviceUid: row.dpp_service_uid,
  granularity: row.granularity,
  registryId: row.registry_id,
  versionNumber: row.version_number,
  versionSha256: row.version_sha256,
  versionRecordedAt: row.version_recorded_at,
  dppStatus: row.dpp_status,
});

/** The registration's oldest intent not yet acknowledged by the registry (they go in order). */
export async function nextPendingIntent(
  em: EntityManager,
  registrationId: string,
): Promise<number | undefined> {
  const [row] = await em.execute<{ id: string | number }[]>(
    `select id from registry_intents where registration_id = ? and state = 'pending' order by id limit 1`,
    [registrationId],
  );
  return row ? Number(row.id) : undefined;
}

/**
 * Sends one intent to the registry and records the answer. The idempotency key is the registration identity
 * and the intent (`{registrationKey}.{intentId}`): a retry after a lost answer is answered, not registered
 * again. Accepted: the intent is sent, the registration registered with the registry's identifier. Refused
 * (a 4xx with a reason): the registration shows the reason, a `registry.registration_refused` webhook event is
 * queued, the intent stays pending for a retry. A transient failure throws (the activity is retried).
 */
export async function sendRegistrationIntent(
  em: EntityManager,
  registry: RegistryPort,
  settings: RegistrySettings,
  intentId: number,
): Promise<RegistryStep> {
  const [row] = await em.execute<IntentRow[]>(
    `select ${INTENT_COLUMNS} from registry_intents i join registry_registrations r on r.id = i.registration_id
     where i.id = ?`,
    [intentId],
  );
  if (!row) return { outcome: 'gone' };
  if (row.state === 'sent') return { outcome: 'registered', registryId: row.registry_id ?? '' };
  const intent = toIntent(row);
  const payload = await buildRegistrationPayload(em, intent, settings);
  if (!payload) return { outcome: 'gone' };
  const key = `${intent.registrationId}.${intent.intentId}`;
  const answer = intent.registryId
    ? await registry.update(intent.registryId, payload, key)
    : await registry.register(payload, key);
  if (answer.accepted) {
    await em.transactional(async (tx) => {
      await tx.execute(
        `update registry_intents set state = 'sent', sent_at = now(), attempts = attempts + 1, last_error = null,
           registry_answer_id = ? where id = ?`,
        [answer.registrationId, intent.intentId],
      );
      await tx.execute(
        `update registry_registrations set state = 'registered', registry_id = coalesce(registry_id, ?),
           registered_at = coalesce(registered_at, now()), unique_product_identifier = ?, refusal_reason = null,
           refusal_fields = null, refused_at = null, updated_at = now() where id = ?`,
        [answer.registrationId, payload.uniqueProductIdentifier, intent.registrationId],
      );
    });
    return { outcome: 'registered', registryId: intent.registryId ?? answer.registrationId };
  }
  await em.transactional(async (tx) => {
    await tx.execute(`update registry_intents set attempts = attempts + 1, last_error = ? where id = ?`, [
      answer.reason,
      intent.intentId,
    ]);
    await tx.execute(
      `update registry_registrations set state = 'refused', refusal_reason = ?, refusal_fields = ?::jsonb,
         refused_at = now(), updated_at = now() where id = ?`,
      [answer.reason, JSON.stringify(answer.fields), intent.registrationId],
    );
    recordEvent(tx, { companyId: intent.companyId, environment: intent.environment }, REGISTRATION_REFUSED, {
      digitalProductPassportId: payload.digitalProductPassportId,
      uniqueProductIdentifier: payload.uniqueProductIdentifier,
      granularity: payload.granularity,
      versionNumber: intent.versionNumber,
      registryStatus: answer.status,
      reason: answer.reason,
      fields: answer.fields,
    });
  });
  return { outcome: 'refused', reason: answer.reason };
}
