import { Migration } from '@mikro-orm/migrations';
import { Migration20261128500001_record_tap_function } from './Migration20261128500001_record_tap_function.ts';

/**
 * record_tap takes the whole tap in one round trip (src/chips/signals/tap-statement.ts): it finds the chip by
 * its UID itself (no SELECT of the chip and its keys before it; the caller verifies with the company's keys kept
 * in memory, and passes their row's version: when the row has changed since, nothing is recorded and the caller
 * re-reads the keys), reads the tamper status only for a chip of the TT type, and for a refused reading with a
 * reference reads the accepted counter again in a statement of its own (a fresh snapshot, so a concurrent
 * acceptance by the same caller has committed by then). The tap's statement itself is that of 20261128500001.
 */
export class Migration20261129200000_record_tap_by_uid extends Migration {
  override up(): void {
    this.addSql('drop function if exists record_tap(uuid, text, int, int, text, timestamptz, text, jsonb);');
    this.addSql(`create or replace function record_tap(
      p_company uuid, p_environment text, p_chip_uid text, p_counter int, p_ref text, p_now timestamptz,
      p_client text, p_tamper jsonb, p_keys_version text
    ) returns table (
      chip_id int, chip_type text, keys_changed boolean, accepted boolean, sun_counter int, sun_counter_ref text,
      openings int, first_at timestamptz, notified int
    ) language plpgsql as $fn$
#variable_conflict use_column
declare
  v_chip int;
  v_chip_type text;
  v_keys_version text;
  v_tamper jsonb;
  v_accepted boolean;
  v_sun_counter int;
  v_sun_counter_ref text;
  v_openings int;
  v_first_at timestamptz;
  v_notified int;
begin
  select c.id, c.chip_type,
         (select k.xmin::text from chip_keys k where k.company_id = c.company_id and k.environment = c.environment)
    into v_chip, v_chip_type, v_keys_version
    from chips c
   where c.company_id = p_company and c.environment = p_environment and c.chip_uid = p_chip_uid;
  if v_chip is null then
    return;
  end if;
  if v_keys_version is distinct from p_keys_version then
    return query select v_chip, v_chip_type, true, false, null::int, null::text, null::int, null::timestamptz, 0;
    return;
  end if;
  v_tamper := case when v_chip_type = 'NTAG 424 DNA TT' then p_tamper end;
  with input as (
      select p_company as company_id, p_environment as environment, v_chip as chip_id, p_counter as counter,
             p_ref as ref, p_now as now, p_client as client, v_tamper as tamper
    ),
    settings as (
      select coalesce(s.reopen_threshold, 5) as reopen_threshold,
             coalesce(s.counter_jump_threshold, 1000) as counter_jump_threshold,
             coalesce(s.burst_taps, 20) as burst_taps,
             coalesce(s.burst_window_seconds, 600) as burst_window_seconds,
             coalesce(s.notify, '["copied_url_reopened","counter_jump","tap_after_end_of_life","tamper_open","verification_burst","chip_enrolled_elsewhere"]'::jsonb) as notify
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
             burst_started_at = case when c.burst_started_at is null
        or c.burst_started_at <= i.now - make_interval(secs => s.burst_window_seconds) then i.now else c.burst_started_at end,
             burst_taps = case when c.burst_started_at is null
        or c.burst_started_at <= i.now - make_interval(secs => s.burst_window_seconds) then 1 else c.burst_taps + 1 end
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
      select 'copied_url_reopened', 'high', i.counter::text as occurrence,
             jsonb_build_object('counter', i.counter, 'openings', r.openings, 'firstOpenedAt', r.first_at,
               'lastOpenedAt', r.last_at, 'spanSeconds', floor(extract(epoch from r.last_at - r.first_at)),
               'distinctClients', r.clients, 'lastAcceptedCounter', p.sun_counter) as evidence
        from reopened r, input i, settings s, prior p where r.openings >= s.reopen_threshold
      union all
      select 'counter_jump', 'medium', i.counter::text,
             jsonb_build_object('previousCounter', a.previous_counter, 'counter', i.counter,
               'jump', i.counter - a.previous_counter, 'previousVerifiedAt', a.previous_at, 'tappedAt', i.now)
        from accepted a, input i, settings s
       where a.previous_counter is not null and i.counter - a.previous_counter > s.counter_jump_threshold
      union all
      select 'verification_burst', 'medium', floor(extract(epoch from a.burst_started_at))::text,
             jsonb_build_object('taps', a.burst_taps, 'since', a.burst_started_at,
               'windowSeconds', s.burst_window_seconds, 'lastTapAt', i.now)
        from accepted a, settings s, input i where a.burst_taps >= s.burst_taps
      union all
      select 'tap_after_end_of_life', 'high', pp.ended,
             jsonb_build_object('passportStatus', pp.ended, 'counter', i.counter, 'tappedAt', i.now)
        from accepted a, passport pp, input i where pp.ended is not null
      union all
      select 'tamper_open', 'high', 'open',
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
      select gen_random_uuid(), i.company_id, i.environment, 'asset.suspicious_activity',
             jsonb_build_object('signalId', r.id, 'signalType', r.type, 'severity', r.severity,
               'chipUid', r.chip_uid, 'tokenId', r.token_id, 'evidence', r.evidence, 'raisedAt', r.raised_at),
             i.now
        from raised r, input i, settings s where r.inserted and s.notify @> jsonb_build_array(r.type)
      returning id
    )
    select exists (select 1 from accepted), p.sun_counter::int, p.sun_counter_ref::text,
           r.openings::int, r.first_at::timestamptz, (select count(*) from notified)::int
      from input i left join prior p on true left join reopened r on true
    into v_accepted, v_sun_counter, v_sun_counter_ref, v_openings, v_first_at, v_notified;
  if not v_accepted and p_ref is not null then
    select c.sun_counter = p_counter and c.sun_counter_ref = p_ref into v_accepted from chips c where c.id = v_chip;
    v_accepted := coalesce(v_accepted, false);
  end if;
  return query select v_chip, v_chip_type, false, v_accepted, v_sun_counter, v_sun_counter_ref, v_openings,
                      v_first_at, v_notified;
end
$fn$;`);
  }

  override down(): void {
    this.addSql(
      'drop function if exists record_tap(uuid, text, text, int, text, timestamptz, text, jsonb, text);',
    );
    // The previous function, as its own migration creates it.
    Migration20261128500001_record_tap_function.prototype.up.call(this);
  }
}
