import type { EntityManager } from '@mikro-orm/postgresql';
import type { Environment } from '../../platform/config/config.ts';
import { pgTimestamp } from '../record/pg-values.ts';

/** A passport's registration in the EU DPP registry, as the API, the ERP view and the console show it. */
export interface RegistryRegistration {
  /** pending: not (yet) accepted; registered: the registry gave its id; refused: see `refusal`. */
  state: 'pending' | 'registered' | 'refused';
  /** The registry's unique registration identifier; null until it answered one. */
  registryId: string | null;
  uniqueProductIdentifier: string | null;
  registeredAt: string | null;
  /** The registry's reason for its latest refusal (and the fields it named); null when not refused. */
  refusal: { reason: string; fields: { path: string; message: string }[]; refusedAt: string } | null;
  /** Versions (and status changes) not yet reported to the registry. */
  pendingVersions: number;
  /** The latest version the registry acknowledged (its hash is registered), null before any. */
  lastRegisteredVersion: { number: number; sha256: string } | null;
}

interface Row {
  state: RegistryRegistration['state'];
  registry_id: string | null;
  unique_product_identifier: string | null;
  registered_at: string | Date | null;
  refusal_reason: string | null;
  refusal_fields: { path: string; message: string }[] | null;
  refused_at: string | Date | null;
  pending: string | number;
  last_number: number | null;
  last_sha256: string | null;
}

/** The registration of the passport (item, batch or model) with this service UID; undefined: none yet. */
export async function readRegistration(
  em: EntityManager,
  environment: Environment,
  serviceUid: string,
): Promise<RegistryRegistration | undefined> {
  const [row] = await em.getConnection().execute<Row[]>(
    `select r.state, r.registry_id, r.unique_product_identifier, r.registered_at, r.refusal_reason,
       r.refusal_fields, r.refused_at,
       (select count(*) from registry_intents i where i.registration_id = r.id and i.state = 'pending') as pending,
       s.version_number as last_number, s.version_sha256 as last_sha256
     from registry_registrations r
     left join lateral (select version_number, version_sha256 from registry_intents i
       where i.registration_id = r.id and i.state = 'sent' order by i.id desc limit 1) s on true
     where r.environment = ? and r.dpp_service_uid = ?`,
    [environment, serviceUid],
  );
  if (!row) return undefined;
  return {
    state: row.state,
    registryId: row.registry_id,
    uniqueProductIdentifier: row.unique_product_identifier,
    registeredAt: row.registered_at === null ? null : pgTimestamp(row.registered_at).toISOString(),
    refusal:
      row.state === 'refused' && row.refusal_reason !== null
        ? {
            reason: row.refusal_reason,
            fields: row.refusal_fields ?? [],
            refusedAt: pgTimestamp(row.refused_at!).toISOString(),
          }
        : null,
    pendingVersions: Number(row.pending),
    lastRegisteredVersion:
      row.last_number === null ? null : { number: row.last_number, sha256: row.last_sha256!.trim() },
  };
}

/** Just the registry's identifier (for headers); null while unregistered. */
export async function registryIdOf(
  em: EntityManager,
  environment: Environment,
  serviceUid: string,
): Promise<string | null> {
  const [row] = await em
    .getConnection()
    .execute<{ registry_id: string | null }[]>(
      'select registry_id from registry_registrations where environment = ? and dpp_service_uid = ?',
      [environment, serviceUid],
    );
  return row?.registry_id ?? null;
}
