import { Migration } from '@mikro-orm/migrations';
import { Migration20261129200000_record_tap_by_uid } from './Migration20261129200000_record_tap_by_uid.ts';

/**
 * record_tap runs only the statements a reading needs instead of one statement with every branch in it. The single
 * statement opened, locked and set up all of its tables and their indexes on every tap (tap_reopenings,
 * chip_signals, outbox_events, passports, passport_links): more locks than a backend's fast path holds, and about
 * 130 µs of executor start-up for inserts that wrote nothing. Now an accepted reading is the chip's conditional
 * UPDATE and one read of its passport (for tap_after_end_of_life); a refused one reads the chip and counts the
 * reopening; chip_signals and outbox_events are touched only when a signal is raised. Rules, evidence and defaults
 * are those of 20261128500001 (docs/signals.md). The chip's row is locked by the UPDATE alone, as before.
 */
export class Migration20261130400000_record_tap_branches extends Migration {
  override up(): void {
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
  v_reopen_threshold int;
  v_jump_threshold int;
  v_burst_taps int;
  v_burst_window int;
  v_notify jsonb;
  v_accepted boolean;
  v_previous_counter int;
  v_previous_at timestamptz;
  v_burst_started_at timestamptz;
  v_burst_count int;
  v_sun_counter int;
  v_sun_counter_ref text;
  v_last_verified_at timestamptz;
  v_openings int;
  v_first_at timestamptz;
  v_last_at timestamptz;
  v_clients int;
  v_token_id text;
  v_ended text;
  -- Signals to raise: rows of (type, severity, occurrence, evidence as text).
  v_raise text[] := '{}';
  v_notified int := 0;
  v_signal_id uuid;
  v_evidence jsonb;
  v_raised_at timestamptz;
  v_inserted boolean;
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
  select coalesce(s.reopen_threshold, 5), coalesce(s.counter_jump_threshold, 1000), coalesce(s.burst_taps, 20),
         coalesce(s.burst_window_seconds, 600),
         coalesce(s.notify, '["copied_url_reopened","counter_jump","tap_after_end_of_life","tamper_open","verification_burst","chip_enrolled_elsewhere"]'::jsonb)
    into v_reopen_threshold, v_jump_threshold, v_burst_taps, v_burst_window, v_notify
    from (select p_company as company_id) i left join signal_settings s on s.company_id = i.company_id;

  -- The one lock: the counter is accepted when greater than the last accepted one.
  update chips c
     set previous_counter = c.sun_counter, previous_verified_at = c.last_verified_at,
         sun_counter = p_counter, sun_counter_ref = p_ref, verification_count = c.verification_count + 1,
         last_verified_at = p_now, updated_at = p_now,
         burst_started_at = case when c.burst_started_at is null
    or c.burst_started_at <= p_now - make_interval(secs => v_burst_window) then p_now else c.burst_started_at end,
         burst_taps = case when c.burst_started_at is null
    or c.burst_started_at <= p_now - make_interval(secs => v_burst_window) then 1 else c.burst_taps + 1 end
   where c.id = v_chip and (c.sun_counter is null or c.sun_counter < p_counter)
  returning c.previous_counter, c.previous_verified_at, c.burst_started_at, c.burst_taps
    into v_previous_counter, v_previous_at, v_burst_started_at, v_burst_count;
  v_accepted := found;

  if v_accepted then
    v_sun_counter := v_previous_counter;
    select pp.token_id,
           case when pp.status = 'RECYCLED' then 'RECYCLED'
                when pp.revoked_at is not null then 'REVOKED'
                when exists (select 1 from passport_links l where l.original_passport_id = pp.id)
                  then 'REPURPOSED' end
      into v_token_id, v_ended
      from passports pp
     where pp.environment = p_environment and pp.company_id = p_company and pp.chip_uid = p_chip_uid;
    if v_previous_counter is not null and p_counter - v_previous_counter > v_jump_threshold then
      v_raise := v_raise || array[['counter_jump', 'medium', p_counter::text,
        jsonb_build_object('previousCounter', v_previous_counter, 'counter', p_counter,
          'jump', p_counter - v_previous_counter, 'previousVerifiedAt', v_previous_at, 'tappedAt', p_now)::text]];
    end if;
    if v_burst_count >= v_burst_taps then
      v_raise := v_raise || array[['verification_burst', 'medium', floor(extract(epoch from v_burst_started_at))::text,
        jsonb_build_object('taps', v_burst_count, 'since', v_burst_started_at,
          'windowSeconds', v_burst_window, 'lastTapAt', p_now)::text]];
    end if;
    if v_ended is not null then
      v_raise := v_raise || array[['tap_after_end_of_life', 'high', v_ended,
        jsonb_build_object('passportStatus', v_ended, 'counter', p_counter, 'tappedAt', p_now)::text]];
    end if;
    if coalesce((v_tamper ->> 'tampered')::boolean, false) then
      v_raise := v_raise || array[['tamper_open', 'high', 'open',
        (v_tamper || jsonb_build_object('counter', p_counter, 'tappedAt', p_now))::text]];
    end if;
  else
    select c.sun_counter, c.sun_counter_ref, c.last_verified_at
      into v_sun_counter, v_sun_counter_ref, v_last_verified_at
      from chips c where c.id = v_chip;
    if p_ref is not null and v_sun_counter = p_counter and v_sun_counter_ref = p_ref then
      -- The same caller's reading accepted earlier (a workflow's retry): no reopening.
      v_accepted := true;
    else
      insert into tap_reopenings as t (chip_id, counter, openings, first_at, last_at, clients)
      values (v_chip, p_counter, 2,
              case when v_sun_counter = p_counter then coalesce(v_last_verified_at, p_now) else p_now end, p_now,
              case when p_client is null then '{}'::text[] else array[p_client] end)
      on conflict (chip_id, counter) do update
         set openings = t.openings + 1, last_at = excluded.last_at,
             clients = case when cardinality(excluded.clients) = 0 or excluded.clients[1] = any(t.clients)
                              or cardinality(t.clients) >= 64 then t.clients
                            else t.clients || excluded.clients end
      returning t.openings, t.first_at, t.last_at, cardinality(t.clients)
        into v_openings, v_first_at, v_last_at, v_clients;
      if v_openings >= v_reopen_threshold then
        select pp.token_id into v_token_id
          from passports pp
         where pp.environment = p_environment and pp.company_id = p_company and pp.chip_uid = p_chip_uid;
        v_raise := v_raise || array[['copied_url_reopened', 'high', p_counter::text,
          jsonb_build_object('counter', p_counter, 'openings', v_openings, 'firstOpenedAt', v_first_at,
            'lastOpenedAt', v_last_at, 'spanSeconds', floor(extract(epoch from v_last_at - v_first_at)),
            'distinctClients', v_clients, 'lastAcceptedCounter', v_sun_counter)::text]];
      end if;
    end if;
  end if;

  -- An ongoing occurrence only updates its evidence; a new one the company is notified of queues the event.
  for n in 1 .. coalesce(array_length(v_raise, 1), 0) loop
    update chip_signals cs
       set evidence = v_raise[n][4]::jsonb || jsonb_build_object('seen', coalesce((cs.evidence ->> 'seen')::int, 1) + 1),
           updated_at = p_now
     where cs.company_id = p_company and cs.environment = p_environment and cs.chip_id = v_chip
       and cs.type = v_raise[n][1] and cs.occurrence = v_raise[n][3];
    continue when found;
    insert into chip_signals as cs
      (company_id, environment, chip_id, chip_uid, token_id, type, severity, occurrence, evidence, raised_at,
       updated_at)
    values (p_company, p_environment, v_chip, p_chip_uid, v_token_id, v_raise[n][1], v_raise[n][2], v_raise[n][3],
            v_raise[n][4]::jsonb || '{"seen": 1}'::jsonb, p_now, p_now)
    on conflict (company_id, environment, chip_id, type, occurrence) do update
       set evidence = excluded.evidence
             || jsonb_build_object('seen', coalesce((cs.evidence ->> 'seen')::int, 1) + 1),
           updated_at = excluded.updated_at
    returning cs.id, cs.evidence, cs.raised_at, (cs.xmax = 0) into v_signal_id, v_evidence, v_raised_at, v_inserted;
    if v_inserted and v_notify @> jsonb_build_array(v_raise[n][1]) then
      insert into outbox_events (id, company_id, environment, event_type, data, occurred_at)
      values (gen_random_uuid(), p_company, p_environment, 'asset.suspicious_activity',
              jsonb_build_object('signalId', v_signal_id, 'signalType', v_raise[n][1], 'severity', v_raise[n][2],
                'chipUid', p_chip_uid, 'tokenId', v_token_id, 'evidence', v_evidence, 'raisedAt', v_raised_at),
              p_now);
      v_notified := v_notified + 1;
    end if;
  end loop;

  return query select v_chip, v_chip_type, false, v_accepted, v_sun_counter, v_sun_counter_ref, v_openings,
                      v_first_at, v_notified;
end
$fn$;`);
  }

  override down(): void {
    Migration20261129200000_record_tap_by_uid.prototype.up.call(this);
  }
}
