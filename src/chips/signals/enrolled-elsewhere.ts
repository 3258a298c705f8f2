import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TenantScope } from '../../platform/db/tenant-scope.ts';
import { DEFAULT_SIGNAL_SETTINGS, SEVERITY_OF, SUSPICIOUS_ACTIVITY_EVENT } from './signal-types.ts';

// One statement: the signal for the company holding the chip (once per other account), and its webhook event
// when newly raised and the holder is notified of this type. The other account is named only by a hash.
const RAISE = `
  with holder as (
    select c.id, c.company_id, c.environment, c.chip_uid,
           (select p.token_id from passports p where p.environment = c.environment and p.chip_uid = c.chip_uid)
             as token_id
      from chips c where c.environment = ? and c.chip_uid = ? and c.company_id <> ?
  ),
  raised as (
    insert into chip_signals as cs (company_id, environment, chip_id, chip_uid, token_id, type, severity,
                                    occurrence, evidence)
    select h.company_id, h.environment, h.id, h.chip_uid, h.token_id, 'chip_enrolled_elsewhere',
           '${SEVERITY_OF.chip_enrolled_elsewhere}', ?,
           jsonb_build_object('otherAccount', ?::text, 'attemptedAt', now(), 'seen', 1)
      from holder h
    on conflict (company_id, environment, chip_id, type, occurrence) do update
       set evidence = cs.evidence || jsonb_build_object('seen', coalesce((cs.evidence ->> 'seen')::int, 1) + 1,
                        'lastAttemptAt', now()),
           updated_at = now()
    returning cs.*, (cs.xmax = 0) as inserted
  )
  insert into outbox_events (id, company_id, environment, event_type, data, occurred_at)
  select gen_random_uuid(), r.company_id, r.environment, '${SUSPICIOUS_ACTIVITY_EVENT}',
         jsonb_build_object('signalId', r.id, 'signalType', r.type, 'severity', r.severity, 'chipUid', r.chip_uid,
           'tokenId', r.token_id, 'evidence', r.evidence, 'raisedAt', r.raised_at), now()
    from raised r
    left join signal_settings s on s.company_id = r.company_id
   where r.inserted and coalesce(s.notify, '${JSON.stringify(DEFAULT_SIGNAL_SETTINGS.notify)}'::jsonb)
         @> jsonb_build_array(r.type)`;

/**
 * Another account tried to enroll a chip UID this environment already holds for a company: that company hears
 * it (a UID is no secret, but a second brand enrolling the same UID means a cloned UID or a mix-up of stock).
 */
export async function raiseEnrolledElsewhere(
  em: EntityManager,
  attempt: TenantScope,
  chipUid: string,
): Promise<void> {
  const other = createHash('sha256').update(`account/1:${attempt.companyId}`).digest('hex').slice(0, 16);
  await em.execute(RAISE, [attempt.environment, chipUid, attempt.companyId, other, other]);
}
