import type { EntityManager } from '@mikro-orm/postgresql';
import type { Environment } from '../../platform/config/config.ts';

export const ENVIRONMENTS: readonly Environment[] = ['test', 'live'];

/** A passport's state as the public sees it (src/passport/views/status.ts), counted per environment. */
export interface PassportCounts {
  active: number;
  suspended: number;
  archived: number;
  recycled: number;
  revoked: number;
  total: number;
}

/** What needs someone's attention in one environment. */
export interface AttentionCounts {
  /** Webhook deliveries that used up their retries (the dead-letter queue). */
  deadLetters: number;
  /** Deliveries whose last attempt failed and that wait for their next retry. */
  retryingDeliveries: number;
  /** Endpoints switched off (by a person, or by the service after repeated failures). */
  disabledEndpoints: number;
  /** Products the EU registry refused to register (docs/registry.md). */
  registryRefused: number;
  /** Backup copies the backup provider refused, or has not accepted after a failed push (docs/backup.md). */
  backupsStuck: number;
}

/** The onboarding steps, each true once the company has done it (in any environment where that makes sense). */
export interface Checklist {
  apiKey: boolean;
  testPassport: boolean;
  webhookEndpoint: boolean;
  verificationSubmitted: boolean;
  liveKey: boolean;
}

export interface CompanyOverview {
  passports: Record<Environment, PassportCounts>;
  attention: Record<Environment, AttentionCounts>;
  checklist: Checklist;
}

// RECYCLED wins over a revocation (recycling revokes), a revocation over the EN 18222 status: publicStatus's order.
const PASSPORTS = `select environment,
    count(*) filter (where status = 'RECYCLED')::int as recycled,
    count(*) filter (where status <> 'RECYCLED' and revoked_at is not null)::int as revoked,
    count(*) filter (where status <> 'RECYCLED' and revoked_at is null and dpp_status = 'archived')::int as archived,
    count(*) filter (where status <> 'RECYCLED' and revoked_at is null and dpp_status = 'suspended')::int as suspended,
    count(*) filter (where status <> 'RECYCLED' and revoked_at is null and dpp_status is null)::int as active,
    count(*)::int as total
  from passports where company_id = ? group by environment`;

const ATTENTION = `select env.environment,
    (select count(*) from webhook_deliveries d
      where d.company_id = ?::uuid and d.environment = env.environment and d.status = 'dead')::int as dead_letters,
    (select count(*) from webhook_deliveries d join webhook_endpoints w on w.id = d.endpoint_id
      where w.company_id = ?::uuid and w.environment = env.environment
        and d.status = 'pending' and d.attempt_count > 0)::int as retrying_deliveries,
    (select count(*) from webhook_endpoints w
      where w.company_id = ?::uuid and w.environment = env.environment
        and w.deleted_at is null and not w.enabled)::int as disabled_endpoints,
    (select count(*) from registry_registrations r
      where r.company_id = ?::uuid and r.environment = env.environment and r.state = 'refused')::int as registry_refused,
    (select count(*) from backup_pushes b
      where b.company_id = ?::uuid and b.environment = env.environment and b.status <> 'acknowledged'
        and (b.status = 'refused' or b.attempts > 0))::int as backups_stuck
  from (values ('test'), ('live')) as env(environment)`;

const CHECKLIST = `select
    exists (select 1 from api_keys where company_id = ?::uuid) as api_key,
    exists (select 1 from passports where company_id = ?::uuid and environment = 'test') as test_passport,
    exists (select 1 from webhook_endpoints where company_id = ?::uuid) as webhook_endpoint,
    exists (select 1 from connect_accounts where owner_kind = 'company' and owner_id = ?) as verification_submitted,
    exists (select 1 from api_keys where company_id = ?::uuid and environment = 'live') as live_key`;

interface PassportRow extends PassportCounts {
  environment: Environment;
}
interface AttentionRow {
  environment: Environment;
  dead_letters: number;
  retrying_deliveries: number;
  disabled_endpoints: number;
  registry_refused: number;
  backups_stuck: number;
}
interface ChecklistRow {
  api_key: boolean;
  test_passport: boolean;
  webhook_endpoint: boolean;
  verification_submitted: boolean;
  live_key: boolean;
}

const noPassports = (): PassportCounts => ({
  active: 0,
  suspended: 0,
  archived: 0,
  recycled: 0,
  revoked: 0,
  total: 0,
});

/**
 * A company's overview in both environments: three statements of counts over indexes
 * (Migration20261127900000_overview_indexes), whatever the number of passports.
 */
export async function companyOverview(em: EntityManager, companyId: string): Promise<CompanyOverview> {
  const passportRows = await em.execute<PassportRow[]>(PASSPORTS, [companyId]);
  const attentionRows = await em.execute<AttentionRow[]>(ATTENTION, Array(5).fill(companyId));
  const checklistRows = await em.execute<ChecklistRow[]>(CHECKLIST, Array(5).fill(companyId));
  const passports = { test: noPassports(), live: noPassports() };
  for (const { environment, ...counts } of passportRows) passports[environment] = counts;
  const attention = {} as Record<Environment, AttentionCounts>;
  for (const row of attentionRows) {
    attention[row.environment] = {
      deadLetters: row.dead_letters,
      retryingDeliveries: row.retrying_deliveries,
      disabledEndpoints: row.disabled_endpoints,
      registryRefused: row.registry_refused,
      backupsStuck: row.backups_stuck,
    };
  }
  const c = checklistRows[0]!;
  return {
    passports,
    attention,
    checklist: {
      apiKey: c.api_key,
      testPassport: c.test_passport,
      webhookEndpoint: c.webhook_endpoint,
      verificationSubmitted: c.verification_submitted,
      liveKey: c.live_key,
    },
  };
}
