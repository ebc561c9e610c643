import { Migration } from '@mikro-orm/migrations';

/**
 * A request's rates counted in one statement with the confirmation of a caller made from memory (issue 28,
 * docs/performance.md "Knowledge search: the key check folded into the rate count"): `svc_rate_take` is
 * `svc_rate_admit` without the admission, for the operations that admit no answer (every REST route but the
 * gateway's answers and the plain chat turns). The same rules: the keys of callers made from memory are
 * confirmed first (`svc_key_confirms`, each distinct key once), and a request whose key changed counts
 * nothing (null: the adapter starts it again with a lookup); then each bucket in order lets through as many
 * of the others as fit, in arrival order, and a request refused by a bucket gets `-b` (that bucket's 429),
 * what the buckets before it counted given back; a request that passes every bucket gets 0.
 */
export class Migration20261128020000 extends Migration {
  override name = 'Migration20261128020000';

  override up(): void {
    this.addSql(`create or replace function svc_rate_take(
        p_buckets text[], p_minute int, p_limits int[], p_key_hashes text[], p_fingerprints text[]) returns int[]
      language plpgsql as $$
      declare
        v_n int := coalesce(array_length(p_key_hashes, 1), 0);
        v_live int[];
        v_passed int;
        v_granted int;
        v_out int[] := array_fill(null::int, array[v_n]);
        v_hash text;
        v_fingerprint text;
        v_confirmed text[] := '{}';
      begin
        perform set_config('synchronous_commit', 'off', true);
        -- Each distinct remembered key (hash and fingerprint) of the batch is checked once.
        for v_hash, v_fingerprint in
          select distinct c.h, c.f from unnest(p_key_hashes, p_fingerprints) as c(h, f) where c.h is not null
        loop
          if svc_key_confirms(v_hash, v_fingerprint) then
            v_confirmed := v_confirmed || (v_hash || '|' || v_fingerprint);
          end if;
        end loop;
        -- The requests that go on, in arrival order: looked up for this request, or remembered and confirmed.
        select coalesce(array_agg(i order by i), '{}') into v_live
          from generate_series(1, v_n) as i
         where p_key_hashes[i] is null or (p_key_hashes[i] || '|' || p_fingerprints[i]) = any(v_confirmed);
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
        for j in 1 .. v_passed loop
          v_out[v_live[j]] := 0;
        end loop;
        return v_out;
      end $$`);
  }

  override down(): void {
    this.addSql('drop function if exists svc_rate_take(text[], int, int[], text[], text[])');
  }
}
