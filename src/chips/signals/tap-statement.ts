import { DEFAULT_SIGNAL_SETTINGS as D, SEVERITY_OF, SUSPICIOUS_ACTIVITY_EVENT } from './signal-types.ts';

const NOTIFY_DEFAULT = `'${JSON.stringify(D.notify)}'::jsonb`;
const sev = (type: keyof typeof SEVERITY_OF) => `'${type}', '${SEVERITY_OF[type]}'`;
const BURST_RESTARTS = `c.burst_started_at is null
      or c.burst_started_at <= i.now - make_interval(secs => s.burst_window_seconds)`;

/**
 * Records one genuine SUN reading of a chip, in one statement: the counter is accepted when greater than the
 * last accepted one (one conditional UPDATE, so of two concurrent readings with one counter exactly one wins),
 * else the reading is a presentation of a used URL and is counted in tap_reopenings. The signals the reading
 * raises (docs/signals.md) are upserted by (chip, type, occurrence), so an ongoing occurrence only updates its
 * evidence; a newly raised one the company is notified of queues asset.suspicious_activity in the outbox.
 *
 * Parameters: company, environment, chip id, counter, reference, time, client hash, tamper status (json).
 */
export const RECORD_TAP = `
  with input as (
    select ?::uuid as company_id, ?::text as environment, ?::int as chip_id, ?::int as counter,
           ?::text as ref, ?::timestamptz as now, ?::text as client, ?::jsonb as tamper
  ),
  settings as (
    select coalesce(s.reopen_threshold, ${D.reopenThreshold}) as reopen_threshold,
           coalesce(s.counter_jump_threshold, ${D.counterJumpThreshold}) as counter_jump_threshold,
           coalesce(s.burst_taps, ${D.burstTaps}) as burst_taps,
           coalesce(s.burst_window_seconds, ${D.burstWindowSeconds}) as burst_window_seconds,
           coalesce(s.notify, ${NOTIFY_DEFAULT}) as notify
      from input i left join signal_settings s on s.company_id = i.company_id
  ),
  -- Read without a lock, for a refused reading only (its evidence); the UPDATE below is the one lock, taken as
  -- late as possible, and its previous_* columns give the accepted reading's predecessor as locked.
  prior as (
    select c.id, c.chip_uid, c.sun_counter, c.sun_counter_ref, c.last_verified_at
      from chips c join input i
        on c.company_id = i.company_id and c.environment = i.environment and c.id = i.chip_id
  ),
  accepted as (
    update chips c
       set previous_counter = c.sun_counter, previous_verified_at = c.last_verified_at,
           sun_counter = i.counter, sun_counter_ref = i.ref, verification_count = c.verification_count + 1,
           last_verified_at = i.now, updated_at = i.now,
           burst_started_at = case when ${BURST_RESTARTS} then i.now else c.burst_started_at end,
           burst_taps = case when ${BURST_RESTARTS} then 1 else c.burst_taps + 1 end
      from input i, settings s
     where c.company_id = i.company_id and c.environment = i.environment and c.id = i.chip_id
       and (c.sun_counter is null or c.sun_counter < i.counter)
    returning c.previous_counter, c.previous_verified_at as previous_at, c.burst_started_at, c.burst_taps
  ),
  reopened as (
    insert into tap_reopenings as t (chip_id, counter, openings, first_at, last_at, clients)
    select p.id, i.counter, 2,
           case when p.sun_counter = i.counter then coalesce(p.last_verified_at, i.now) else i.now end, i.now,
           case when i.client is null then '{}'::text[] else array[i.client] end
      from prior p, input i
     where not exists (select 1 from accepted)
       and not (i.ref is not null and p.sun_counter = i.counter and p.sun_counter_ref = i.ref)
    on conflict (chip_id, counter) do update
       set openings = t.openings + 1, last_at = excluded.last_at,
           clients = case when cardinality(excluded.clients) = 0 or excluded.clients[1] = any(t.clients)
                            or cardinality(t.clients) >= 64 then t.clients
                          else t.clients || excluded.clients end
    returning openings, first_at, last_at, cardinality(clients) as clients
  ),
  passport as (
    select pp.token_id,
           case when pp.status = 'RECYCLED' then 'RECYCLED'
                when pp.revoked_at is not null then 'REVOKED'
                when exists (select 1 from passport_links l where l.original_passport_id = pp.id)
                  then 'REPURPOSED' end as ended
      from passports pp join input i on pp.environment = i.environment and pp.company_id = i.company_id
      join prior p on pp.chip_uid = p.chip_uid
  ),
  candidates as (
    select ${sev('copied_url_reopened')}, i.counter::text as occurrence,
           jsonb_build_object('counter', i.counter, 'openings', r.openings, 'firstOpenedAt', r.first_at,
             'lastOpenedAt', r.last_at, 'spanSeconds', floor(extract(epoch from r.last_at - r.first_at)),
             'distinctClients', r.clients, 'lastAcceptedCounter', p.sun_counter) as evidence
      from reopened r, input i, settings s, prior p where r.openings >= s.reopen_threshold
    union all
    select ${sev('counter_jump')}, i.counter::text,
           jsonb_build_object('previousCounter', a.previous_counter, 'counter', i.counter,
             'jump', i.counter - a.previous_counter, 'previousVerifiedAt', a.previous_at, 'tappedAt', i.now)
      from accepted a, input i, settings s
     where a.previous_counter is not null and i.counter - a.previous_counter > s.counter_jump_threshold
    union all
    select ${sev('verification_burst')}, floor(extract(epoch from a.burst_started_at))::text,
           jsonb_build_object('taps', a.burst_taps, 'since', a.burst_started_at,
             'windowSeconds', s.burst_window_seconds, 'lastTapAt', i.now)
      from accepted a, settings s, input i where a.burst_taps >= s.burst_taps
    union all
    select ${sev('tap_after_end_of_life')}, pp.ended,
           jsonb_build_object('passportStatus', pp.ended, 'counter', i.counter, 'tappedAt', i.now)
      from accepted a, passport pp, input i where pp.ended is not null
    union all
    select ${sev('tamper_open')}, 'open',
           i.tamper || jsonb_build_object('counter', i.counter, 'tappedAt', i.now)
      from accepted a, input i where coalesce((i.tamper ->> 'tampered')::boolean, false)
  ),
  raised as (
    insert into chip_signals as cs
      (company_id, environment, chip_id, chip_uid, token_id, type, severity, occurrence, evidence, raised_at,
       updated_at)
    select i.company_id, i.environment, p.id, p.chip_uid, (select token_id from passport), c.type, c.severity,
           c.occurrence, c.evidence || '{"seen": 1}'::jsonb, i.now, i.now
      from candidates c (type, severity, occurrence, evidence), input i, prior p
    on conflict (company_id, environment, chip_id, type, occurrence) do update
       set evidence = excluded.evidence
             || jsonb_build_object('seen', coalesce((cs.evidence ->> 'seen')::int, 1) + 1),
           updated_at = excluded.updated_at
    returning cs.id, cs.type, cs.severity, cs.chip_uid, cs.token_id, cs.evidence, cs.raised_at,
              (cs.xmax = 0) as inserted
  ),
  notified as (
    insert into outbox_events (id, company_id, environment, event_type, data, occurred_at)
    select gen_random_uuid(), i.company_id, i.environment, '${SUSPICIOUS_ACTIVITY_EVENT}',
           jsonb_build_object('signalId', r.id, 'signalType', r.type, 'severity', r.severity,
             'chipUid', r.chip_uid, 'tokenId', r.token_id, 'evidence', r.evidence, 'raisedAt', r.raised_at),
           i.now
      from raised r, input i, settings s where r.inserted and s.notify @> jsonb_build_array(r.type)
    returning id
  )
  select exists (select 1 from accepted) as accepted, p.sun_counter, p.sun_counter_ref, r.openings,
         r.first_at, (select count(*) from notified)::int as notified
    from input i left join prior p on true left join reopened r on true`;

export interface RecordedTap {
  accepted: boolean;
  /** The chip's accepted counter as this statement's snapshot saw it (a refused reading's evidence). */
  sun_counter: number | null;
  sun_counter_ref: string | null;
  /** A used URL's presentations so far, this one included (its first reading counted), and since when. */
  openings: number | null;
  first_at: Date | string | null;
  notified: number;
}
