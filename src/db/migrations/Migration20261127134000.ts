import { Migration } from '@mikro-orm/migrations';

/**
 * The key check of the gateway's admission, planned once per connection and run once per key (issue 28,
 * docs/performance.md "The gateway, eighth pass"). Same rules as Migration20261127080000; two costs go:
 *
 * - `svc_key_confirms` was a SQL function with a recursive query, which PostgreSQL cannot inline: every
 *   statement that called it parsed and planned its body again (about 0.8 ms of the database's CPU, against
 *   0.15 ms for the same body in PL/pgSQL, whose plans a connection keeps: pgbench, one client). At one
 *   connection that was every call's admission.
 * - `svc_rate_admit` filtered the batch's keys through it before their `distinct`, so a batch of n calls of
 *   one key checked that key n times; each distinct key (hash and fingerprint) is now checked once.
 */
export class Migration20261127134000 extends Migration {
  override name = 'Migration20261127134000';

  override up(): void {
    this.addSql(`create or replace function svc_key_confirms(p_hash text, p_fingerprint text) returns boolean
      language plpgsql stable as $$
      begin
        return coalesce((
          with recursive ancestors(id, parent_key_id, revoked_at) as (
            select p.id, p.parent_key_id, p.revoked_at from api_key c join api_key p on p.id = c.parent_key_id where c.secret_hash = p_hash
            union
            select p.id, p.parent_key_id, p.revoked_at from ancestors a join api_key p on p.id = a.parent_key_id
          )
          select k.revoked_at is null
                 and md5(concat_ws('|', k::text, u::text, w::text)) = p_fingerprint
                 and not exists (select 1 from ancestors where revoked_at is not null)
            from api_key k
            join workspace w on w.id = k.workspace_id
            left join app_user u on u.id = k.user_id and u.workspace_id = k.workspace_id
           where k.secret_hash = p_hash), false);
      end $$`);
    this.addSql(rateAdmit(`
        -- Each distinct remembered key (hash and fingerprint) of the batch is checked once.
        for v_hash, v_fingerprint in
          select distinct c.h, c.f from unnest(p_key_hashes, p_fingerprints) as c(h, f) where c.h is not null
        loop
          if svc_key_confirms(v_hash, v_fingerprint) then
            v_confirmed := v_confirmed || (v_hash || '|' || v_fingerprint);
          end if;
        end loop;
        select coalesce(array_agg(i order by i), '{}') into v_live
          from generate_series(1, v_n) as i
         where p_key_hashes[i] is null or (p_key_hashes[i] || '|' || p_fingerprints[i]) = any(v_confirmed);`));
  }

  override down(): void {
    this.addSql(`create or replace function svc_key_confirms(p_hash text, p_fingerprint text) returns boolean
      language sql stable as $$
        with recursive ancestors(id, parent_key_id, revoked_at) as (
          select p.id, p.parent_key_id, p.revoked_at from api_key c join api_key p on p.id = c.parent_key_id where c.secret_hash = p_hash
          union
          select p.id, p.parent_key_id, p.revoked_at from ancestors a join api_key p on p.id = a.parent_key_id
        )
        select coalesce((
          select k.revoked_at is null
                 and md5(concat_ws('|', k::text, u::text, w::text)) = p_fingerprint
                 and not exists (select 1 from ancestors where revoked_at is not null)
            from api_key k
            join workspace w on w.id = k.workspace_id
            left join app_user u on u.id = k.user_id and u.workspace_id = k.workspace_id
           where k.secret_hash = p_hash), false)
      $$`);
    this.addSql(rateAdmit(`
        select coalesce(array_agg(i order by i), '{}') into v_live
          from generate_series(1, v_n) as i
         where p_key_hashes[i] is null
            or (p_key_hashes[i], p_fingerprints[i]) in (
                 select distinct c.h, c.f from unnest(p_key_hashes, p_fingerprints) as c(h, f)
                  where c.h is not null and svc_key_confirms(c.h, c.f));`));
  }
}

/** `svc_rate_admit` as Migration20261127080000 has it, with `live` choosing the requests that go on (`v_live`). */
const rateAdmit = (live: string) => `create or replace function svc_rate_admit(
        p_buckets text[], p_minute int, p_limits int[],
        p_ws text, p_now timestamptz, p_start timestamptz, p_end timestamptz, p_allowance bigint,
        p_required int[], p_ids text[], p_expires timestamptz,
        p_key_hashes text[], p_fingerprints text[]) returns bigint[]
      language plpgsql as $$
      declare
        v_n int := coalesce(array_length(p_required, 1), 0);
        v_live int[];
        v_passed int;
        v_granted int;
        v_out bigint[] := array_fill(null::bigint, array[v_n]);
        v_admitted bigint[];
        v_hash text;
        v_fingerprint text;
        v_confirmed text[] := '{}';
      begin
        perform set_config('synchronous_commit', 'off', true);
        -- The requests that go on, in arrival order: looked up for this request, or remembered and confirmed.
        ${live.trim()}
        v_passed := coalesce(array_length(v_live, 1), 0);
        for b in 1 .. coalesce(array_length(p_buckets, 1), 0) loop
          exit when v_passed = 0;
          insert into rate_counter as r (bucket, minute, count, granted)
          values (p_buckets[b], p_minute, least(v_passed, p_limits[b]), least(v_passed, p_limits[b]))
          on conflict (bucket, minute) do update
             set count = greatest(r.count, least(r.count + v_passed, p_limits[b])),
                 granted = greatest(r.count, least(r.count + v_passed, p_limits[b])) - r.count
          returning greatest(0, granted) into v_granted;
          if v_granted < v_passed and b > 1 then
            update rate_counter set count = greatest(0, count - (v_passed - v_granted))
             where bucket = any(p_buckets[1:b - 1]) and minute = p_minute;
          end if;
          for j in v_granted + 1 .. v_passed loop
            v_out[v_live[j]] := -b;
          end loop;
          v_passed := v_granted;
        end loop;
        if v_passed > 0 then
          v_admitted := svc_admit(p_ws, p_now, p_start, p_end, p_allowance,
                                  array(select p_required[v_live[j]] from generate_series(1, v_passed) as j order by j),
                                  array(select p_ids[v_live[j]] from generate_series(1, v_passed) as j order by j),
                                  p_expires);
          for j in 1 .. v_passed loop
            v_out[v_live[j]] := v_admitted[j];
          end loop;
        end if;
        return v_out;
      end $$`;
