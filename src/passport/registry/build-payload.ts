import type { EntityManager } from '@mikro-orm/postgresql';
import type { RegistrationPayload } from '../../adapters/registry/registration-payload.ts';
import type { Environment } from '../../platform/config/config.ts';
import { digitalLink } from '../../standards/gs1/digital-link.ts';
import { ITEM_LEVELS_JOIN } from '../content/inherited-layers.ts';
import { levelDigitalLink } from '../levels/levels.ts';
import { dppIdOf } from '../record/passport-header.ts';
import { pgTimestamp } from '../record/pg-values.ts';
import { commodityCodeOf, regimesOf } from './product-group-regimes.ts';

/** The service's side of every registration: where passports resolve, who we are, where backups live. */
export interface RegistrySettings {
  publicBaseUrl: string;
  serviceProviderId: string;
  /** `{path}`: the Digital Link's path; `{dppId}`: the passport's id. Unset: no backup link (the registry refuses). */
  backupCopyUrlTemplate: string | undefined;
}

/** One intent to send, with its registration (what the registry workflow works on). */
export interface PendingIntent {
  intentId: number;
  registrationId: string;
  companyId: string;
  environment: Environment;
  serviceUid: string;
  granularity: 'model' | 'batch' | 'item';
  registryId: string | null;
  versionNumber: number;
  versionSha256: string;
  versionRecordedAt: Date;
  dppStatus: RegistrationPayload['dppStatus'];
}

interface SubjectRow {
  gtin: string | null;
  lot: string | null;
  token_id: string | null;
  economic_operator_id: string | null;
  facility_id: string | null;
  groups: string[] | null;
}

const SETTINGS_JOIN = `left join company_settings cs on cs.company_id = x.company_id and cs.environment = x.environment`;

async function subjectOf(em: EntityManager, intent: PendingIntent): Promise<SubjectRow | undefined> {
  const [row] =
    intent.granularity === 'item'
      ? await em.execute<SubjectRow[]>(
          `select x.gtin, null as lot, x.token_id, cs.economic_operator_id, cs.facility_id,
             (select array_agg(pc.spec_group order by pc.spec_group) from passport_content pc
              where pc.passport_id = x.id) as groups
           from passports x ${SETTINGS_JOIN} where x.service_uid = ? and x.environment = ?`,
          [intent.serviceUid, intent.environment],
        )
      : await em.execute<SubjectRow[]>(
          `select x.gtin, x.lot, null as token_id, cs.economic_operator_id, cs.facility_id,
             (select array_agg(c.spec_group order by c.spec_group) from dpp_level_content c
              where c.level_id = x.id) as groups
           from dpp_levels x ${SETTINGS_JOIN} where x.service_uid = ? and x.environment = ?`,
          [intent.serviceUid, intent.environment],
        );
  return row;
}

interface LinkRow {
  granularity: 'model' | 'batch';
  gtin: string;
  lot: string | null;
  environment: Environment;
  registry_id: string | null;
}

/** Art. 8(4): an item's batch and model passports; a batch's model passport (same company, same GTIN). */
async function linksOf(em: EntityManager, intent: PendingIntent): Promise<LinkRow[]> {
  if (intent.granularity === 'model') return [];
  const levels =
    intent.granularity === 'item'
      ? `select l.granularity, l.gtin, l.lot, l.environment, l.service_uid from passports p ${ITEM_LEVELS_JOIN}
         where p.service_uid = ? and p.environment = ?`
      : `select l.granularity, l.gtin, l.lot, l.environment, l.service_uid from dpp_levels b
         join dpp_levels l on l.environment = b.environment and l.company_id = b.company_id and l.gtin = b.gtin
           and l.granularity = 'model'
         where b.service_uid = ? and b.environment = ?`;
  return em.execute<LinkRow[]>(
    `select l.granularity, l.gtin, l.lot, l.environment, r.registry_id from (${levels}) l
     left join registry_registrations r on r.environment = l.environment and r.dpp_service_uid = l.service_uid
     order by l.granularity`,
    [intent.serviceUid, intent.environment],
  );
}

function backupCopyUrl(template: string | undefined, upi: string, publicBaseUrl: string, dppId: string) {
  if (!template) return null;
  const path = upi.startsWith(publicBaseUrl) ? upi.slice(publicBaseUrl.length) : new URL(upi).pathname;
  return template.replaceAll('{path}', path).replaceAll('{dppId}', encodeURIComponent(dppId));
}

/**
 * The registration payload of an intent, built when it is sent: the version's hash and status as the intent
 * recorded them; the operator's EORI, facility, product groups and links as they are now (so data the brand
 * fixes after a refusal is what the retry sends). Undefined when the passport no longer exists.
 */
export async function buildRegistrationPayload(
  em: EntityManager,
  intent: PendingIntent,
  settings: RegistrySettings,
): Promise<RegistrationPayload | undefined> {
  const [subject, links] = await Promise.all([subjectOf(em, intent), linksOf(em, intent)]);
  if (!subject) return undefined;
  const { publicBaseUrl } = settings;
  const upi =
    intent.granularity === 'item'
      ? digitalLink(publicBaseUrl, intent.environment, subject.gtin, subject.token_id!)
      : levelDigitalLink(publicBaseUrl, {
          environment: intent.environment,
          gtin: subject.gtin!,
          lot: subject.lot,
        });
  const groups = subject.groups ?? [];
  const dppId = dppIdOf(intent.serviceUid);
  return {
    registrationKey: intent.registrationId,
    uniqueProductIdentifier: upi,
    digitalProductPassportId: dppId,
    granularity: intent.granularity,
    uniqueOperatorIdentifier: subject.economic_operator_id,
    uniqueFacilityIdentifier: subject.facility_id,
    commodityCode: commodityCodeOf(groups),
    regimes: regimesOf(groups),
    dppStatus: intent.dppStatus,
    version: {
      number: intent.versionNumber,
      sha256: intent.versionSha256.trim(),
      recordedAt: pgTimestamp(intent.versionRecordedAt).toISOString(),
    },
    backupCopyUrl: backupCopyUrl(settings.backupCopyUrlTemplate, upi, publicBaseUrl, dppId),
    serviceProviderId: settings.serviceProviderId,
    linkedPassports: links.map((link) => ({
      granularity: link.granularity,
      uniqueProductIdentifier: levelDigitalLink(publicBaseUrl, link),
      registrationId: link.registry_id,
    })),
  };
}
