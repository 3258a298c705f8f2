import { Migration } from '@mikro-orm/migrations';

/**
 * EU DPP registry registrations (issue 35, docs/registry.md). `registry_registrations`: one registration identity
 * per product (its passport, so its unique product identifier), whatever regimes it falls under, with the
 * registry's own identifier once registered, or the registry's reason when it refused. `registry_intents`: what
 * is still to be told to the registry: one per passport version (Art. 9: a hash of each version), written by a
 * trigger in the very transaction that records the version (the first publication, a status change, any other
 * change), so none is ever lost whichever code path wrote the version. The registry workflow drains a
 * passport's intents in id order; `dispatched_at` is set once the dispatcher has handed an intent to it.
 */
export class Migration20261127810000_registry_registrations extends Migration {
  override up(): void {
    this.addSql(`create table registry_registrations (
      id uuid primary key,
      company_id uuid not null references companies(id) on delete cascade,
      environment text not null check (environment in ('live', 'test')),
      dpp_service_uid uuid not null,
      granularity text not null check (granularity in ('model', 'batch', 'item')),
      unique_product_identifier text null,
      registry_id text null,
      state text not null default 'pending' check (state in ('pending', 'registered', 'refused')),
      refusal_reason text null,
      refusal_fields jsonb null,
      refused_at timestamptz null,
      registered_at timestamptz null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (environment, dpp_service_uid),
      unique (environment, unique_product_identifier)
    );`);
    this.addSql(`create table registry_intents (
      id bigserial primary key,
      registration_id uuid not null references registry_registrations(id) on delete cascade,
      kind text not null check (kind in ('register', 'update')),
      cause text not null check (cause in ('published', 'status_changed', 'version')),
      version_number integer not null,
      version_sha256 char(64) not null,
      version_recorded_at timestamptz not null,
      dpp_status text not null,
      state text not null default 'pending' check (state in ('pending', 'sent')),
      attempts integer not null default 0,
      last_error text null,
      registry_answer_id text null,
      dispatched_at timestamptz null,
      sent_at timestamptz null,
      created_at timestamptz not null default now()
    );`);
    this.addSql(
      `create index registry_intents_undispatched_idx on registry_intents (id)
       where state = 'pending' and dispatched_at is null;`,
    );
    this.addSql(
      `create index registry_intents_pending_idx on registry_intents (registration_id, id) where state = 'pending';`,
    );
    this.addSql(`create function registry_intent_for_version() returns trigger language plpgsql as $$
      declare
        v_company uuid; v_environment text; v_uid uuid; v_granularity text; v_status text;
        v_registration uuid; v_last_status text;
      begin
        if tg_table_name = 'passport_versions' then
          select p.company_id, p.environment, p.service_uid, 'item',
              case when p.status = 'RECYCLED' or p.dpp_status = 'archived' then 'archived'
                   when p.revoked_at is not null or p.dpp_status = 'suspended' then 'suspended'
                   else 'active' end
            into v_company, v_environment, v_uid, v_granularity, v_status
            from passports p where p.id = new.passport_id;
        else
          select l.company_id, l.environment, l.service_uid, l.granularity, l.dpp_status
            into v_company, v_environment, v_uid, v_granularity, v_status
            from dpp_levels l where l.id = new.level_id;
        end if;
        if v_uid is null then return new; end if;
        insert into registry_registrations (id, company_id, environment, dpp_service_uid, granularity)
          values (gen_random_uuid(), v_company, v_environment, v_uid, v_granularity)
          on conflict (environment, dpp_service_uid) do nothing
          returning id into v_registration;
        if v_registration is not null then
          insert into registry_intents (registration_id, kind, cause, version_number, version_sha256,
              version_recorded_at, dpp_status)
            values (v_registration, 'register', 'published', new.number, new.sha256, new.created_at, v_status);
          return new;
        end if;
        select id into v_registration from registry_registrations
          where environment = v_environment and dpp_service_uid = v_uid;
        select i.dpp_status into v_last_status from registry_intents i
          where i.registration_id = v_registration order by i.id desc limit 1;
        insert into registry_intents (registration_id, kind, cause, version_number, version_sha256,
            version_recorded_at, dpp_status)
          values (v_registration, 'update',
            case when v_last_status is distinct from v_status then 'status_changed' else 'version' end,
            new.number, new.sha256, new.created_at, v_status);
        return new;
      end $$;`);
    this.addSql(`create trigger passport_versions_registry_intent after insert on passport_versions
      for each row execute function registry_intent_for_version();`);
    this.addSql(`create trigger dpp_level_versions_registry_intent after insert on dpp_level_versions
      for each row execute function registry_intent_for_version();`);
  }

  override down(): void {
    this.addSql('drop trigger if exists dpp_level_versions_registry_intent on dpp_level_versions;');
    this.addSql('drop trigger if exists passport_versions_registry_intent on passport_versions;');
    this.addSql('drop function if exists registry_intent_for_version();');
    this.addSql('drop table if exists registry_intents;');
    this.addSql('drop table if exists registry_registrations;');
  }
}
