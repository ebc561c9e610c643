import { Migration } from '@mikro-orm/migrations';

/**
 * Rate counts and admission in one statement (issue 28, docs/performance.md "The hot path, second step"):
 * `svc_rate_admit` counts a batch of requests of one workspace in each of their rate buckets (the key's
 * `ratePerMinute`, then the route's ceiling), in order, as `takeBatch` does one bucket at a time, then
 * admits the requests every bucket let through with `svc_admit`, in the same transaction. Requests refused
 * by a bucket give back what the buckets before it counted for them, and are neither admitted nor held.
 *
 * Returns one number per request: the questions available when it was admitted (as `svc_admit`; it holds
 * its questions when that covers them), or `-b` when bucket `b` (1-based) refused it.
 */
export class Migration20261127053000 extends Migration {
  override name = 'Migration20261127053000';

  override up(): void {
    this.addSql(`create function svc_rate_admit(
        p_buckets text[], p_minute int, p_limits int[],
        p_ws text, p_now timestamptz, p_start timestamptz, p_end timestamptz, p_allowance bigint,
        p_required int[], p_ids text[], p_expires timestamptz) returns bigint[]
      language plpgsql as $$
      declare
        v_n int := coalesce(array_length(p_required, 1), 0);
        v_passed int := v_n;
        v_granted int;
        v_out bigint[] := array_fill(0::bigint, array[v_n]);
        v_admitted bigint[] := '{}';
      begin
        perform set_config('synchronous_commit', 'off', true);
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
          for i in v_granted + 1 .. v_passed loop
            v_out[i] := -b;
          end loop;
          v_passed := v_granted;
        end loop;
        if v_passed > 0 then
          v_admitted := svc_admit(p_ws, p_now, p_start, p_end, p_allowance, p_required[1:v_passed], p_ids[1:v_passed], p_expires);
          for i in 1 .. v_passed loop
            v_out[i] := v_admitted[i];
          end loop;
        end if;
        return v_out;
      end $$`);
  }
}
