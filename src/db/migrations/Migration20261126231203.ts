import { Migration } from '@mikro-orm/migrations';

/**
 * Running totals of the ledger, so that an admission and a record read a bounded number of rows whatever
 * the ledger's size (issue 25: gateway throughput fell 238 → 124 calls/s over a 3-minute soak while every
 * `svc_admit` and `svc_record` summed the workspace's ledger over the allowance window, the pack rows over
 * all time, and every record of a key with a ceiling summed the key's month). docs/performance.md,
 * "Admission and the ledger's size".
 *
 * - `usage_window_total`: the allowance used (`from_allowance` of question rows) per workspace and allowance
 *   window. A window's row is opened by `svc_window_open`, under the workspace row lock, with the sum of the
 *   ledger as `svc_balance` reads it (the row is missing the first time a window is used, after a plan
 *   change, or for windows of the past); from then on it is kept by the ledger's trigger.
 * - `usage_pack_total`: the questions taken from packs per workspace, all time.
 * - `usage_key_month`: the questions per meter (`usage_ledger.key_id`) and calendar month (UTC), the
 *   window of per-key ceilings.
 *
 * Statement triggers on `usage_ledger` (after insert, update or delete, with the statement's rows) keep the
 * three in the same transaction as the rows, whoever writes them (`svc_record`, a seed, a workspace deleted by
 * cascade): the sums stay equal to the ledger. Rows taking from the allowance lock their workspace's row first
 * (already held by `svc_record`), so a window opened concurrently by `svc_window_open` counts them exactly once.
 * `svc_balance` stays the one reader of the balance; it reads the totals, and the ledger only for a window
 * that has no row.
 */
export class Migration20261126231203 extends Migration {
  override name = 'Migration20261126231203';

  override up(): void {
    this.addSql(`create table usage_window_total (
      workspace_id varchar(64) not null references workspace(id) on delete cascade,
      period_start timestamptz not null,
      period_end timestamptz not null,
      allowance_used bigint not null,
      primary key (workspace_id, period_start, period_end)
    )`);
    this.addSql(`create table usage_pack_total (
      workspace_id varchar(64) primary key references workspace(id) on delete cascade,
      packs_used bigint not null
    )`);
    this.addSql(`create table usage_key_month (
      key_id varchar(64) not null,
      month_start timestamptz not null,
      workspace_id varchar(64) not null references workspace(id) on delete cascade,
      questions bigint not null,
      primary key (key_id, month_start, workspace_id)
    )`);
    this.addSql(`insert into usage_pack_total (workspace_id, packs_used)
      select workspace_id, sum(from_packs) from usage_ledger where from_packs > 0 group by workspace_id`);
    this.addSql(`insert into usage_key_month (key_id, month_start, workspace_id, questions)
      select key_id, date_trunc('month', created_at, 'UTC'), workspace_id, sum(questions) from usage_ledger
       where kind = 'question' and key_id is not null and questions <> 0 group by 1, 2, 3`);

    // A set of ledger rows added (s = 1) or taken away (s = -1), applied to the totals in a few set-based statements.
    this.addSql(`create function svc_ledger_apply(p_rows usage_ledger[], s int) returns void language plpgsql as $$
      begin
        perform 1 from workspace w
         where w.id in (select r.workspace_id from unnest(p_rows) r where r.kind = 'question' and r.from_allowance <> 0)
         order by w.id for no key update;
        update usage_window_total t set allowance_used = t.allowance_used + s * d.used
          from (select w.workspace_id, w.period_start, w.period_end, sum(r.from_allowance) as used
                  from unnest(p_rows) r
                  join usage_window_total w on w.workspace_id = r.workspace_id and w.period_start <= r.created_at and w.period_end > r.created_at
                 where r.kind = 'question' and r.from_allowance <> 0
                 group by 1, 2, 3) d
         where t.workspace_id = d.workspace_id and t.period_start = d.period_start and t.period_end = d.period_end;
        if s > 0 then
          insert into usage_pack_total as t (workspace_id, packs_used)
          select r.workspace_id, sum(r.from_packs) from unnest(p_rows) r where r.from_packs > 0 group by 1
          on conflict (workspace_id) do update set packs_used = t.packs_used + excluded.packs_used;
          insert into usage_key_month as t (key_id, month_start, workspace_id, questions)
          select r.key_id, date_trunc('month', r.created_at, 'UTC'), r.workspace_id, sum(r.questions) from unnest(p_rows) r
           where r.kind = 'question' and r.key_id is not null and r.questions <> 0 group by 1, 2, 3
          on conflict (key_id, month_start, workspace_id) do update set questions = t.questions + excluded.questions;
        else
          update usage_pack_total t set packs_used = t.packs_used - d.used
            from (select r.workspace_id, sum(r.from_packs) as used from unnest(p_rows) r where r.from_packs > 0 group by 1) d
           where t.workspace_id = d.workspace_id;
          update usage_key_month t set questions = t.questions - d.questions
            from (select r.key_id, date_trunc('month', r.created_at, 'UTC') as month_start, r.workspace_id, sum(r.questions) as questions
                    from unnest(p_rows) r where r.kind = 'question' and r.key_id is not null and r.questions <> 0 group by 1, 2, 3) d
           where t.key_id = d.key_id and t.month_start = d.month_start and t.workspace_id = d.workspace_id;
        end if;
      end $$`);
    this.addSql(`create function svc_ledger_totals() returns trigger language plpgsql as $$
      begin
        if tg_op in ('UPDATE', 'DELETE') then perform svc_ledger_apply(array(select o::usage_ledger from old_rows o), -1); end if;
        if tg_op in ('UPDATE', 'INSERT') then perform svc_ledger_apply(array(select n::usage_ledger from new_rows n), 1); end if;
        return null;
      end $$`);
    this.addSql(`create trigger usage_ledger_totals_insert after insert on usage_ledger
      referencing new table as new_rows for each statement execute function svc_ledger_totals()`);
    this.addSql(`create trigger usage_ledger_totals_update after update on usage_ledger
      referencing old table as old_rows new table as new_rows for each statement execute function svc_ledger_totals()`);
    this.addSql(`create trigger usage_ledger_totals_delete after delete on usage_ledger
      referencing old table as old_rows for each statement execute function svc_ledger_totals()`);

    // The one reader of the balance: the window's running total when it has one, else the ledger's sum.
    this.addSql(`create or replace function svc_balance(p_ws text, p_start timestamptz, p_end timestamptz, p_allowance bigint)
      returns table (allowance_used bigint, packs_bought bigint, packs_used bigint, held bigint, allowance_left bigint, packs_left bigint)
      language sql stable as $$
        select u.used, b.bought, p.used, h.held, greatest(0, p_allowance - u.used), greatest(0, b.bought - p.used)
          from (select coalesce(
                  (select t.allowance_used from usage_window_total t where t.workspace_id = p_ws and t.period_start = p_start and t.period_end = p_end),
                  (select coalesce(sum(from_allowance), 0) from usage_ledger
                    where workspace_id = p_ws and kind = 'question' and created_at >= p_start and created_at < p_end))::bigint as used) u,
               (select coalesce(sum(questions), 0)::bigint as bought from question_pack where workspace_id = p_ws) b,
               (select coalesce((select t.packs_used from usage_pack_total t where t.workspace_id = p_ws), 0)::bigint as used) p,
               (select coalesce(sum(questions), 0)::bigint as held from question_hold where workspace_id = p_ws) h
      $$`);
    // Called under the workspace row lock: the window's row, from the ledger's sum, the first time it is used.
    this.addSql(`create function svc_window_open(p_ws text, p_start timestamptz, p_end timestamptz) returns void language plpgsql as $$
      begin
        if not exists (select 1 from usage_window_total where workspace_id = p_ws and period_start = p_start and period_end = p_end) then
          insert into usage_window_total (workspace_id, period_start, period_end, allowance_used)
          select p_ws, p_start, p_end, b.allowance_used from svc_balance(p_ws, p_start, p_end, 0) b;
        end if;
      end $$`);
    this.addSql(`create or replace function svc_admit(
        p_ws text, p_now timestamptz, p_start timestamptz, p_end timestamptz, p_allowance bigint,
        p_required int[], p_ids text[], p_expires timestamptz) returns bigint[]
      language plpgsql as $$
      declare
        v_available bigint;
        v_out bigint[] := '{}';
      begin
        perform set_config('synchronous_commit', 'off', true);
        perform 1 from workspace where id = p_ws for no key update;
        perform svc_window_open(p_ws, p_start, p_end);
        delete from question_hold where workspace_id = p_ws and expires_at <= p_now;
        select greatest(0, b.allowance_left + b.packs_left - b.held) into v_available
          from svc_balance(p_ws, p_start, p_end, p_allowance) b;
        for i in 1 .. coalesce(array_length(p_required, 1), 0) loop
          v_out := v_out || v_available;
          if v_available >= p_required[i] then
            insert into question_hold (id, workspace_id, questions, expires_at) values (p_ids[i], p_ws, p_required[i], p_expires);
            v_available := v_available - p_required[i];
          end if;
        end loop;
        return v_out;
      end $$`);
    this.addSql(`create or replace function svc_record(
        p_ws text, p_now timestamptz, p_start timestamptz, p_end timestamptz, p_allowance bigint,
        p_hold_ids text[], p_ids text[], p_key_ids text[], p_user_ids text[], p_routes text[], p_classes text[],
        p_models text[], p_prompt int[], p_completion int[], p_total int[], p_questions int[]) returns void
      language plpgsql as $$
      declare
        v_allowance_left bigint; v_packs_left bigint;
        v_from_allowance bigint; v_from_packs bigint;
      begin
        perform 1 from workspace where id = p_ws for no key update;
        perform svc_window_open(p_ws, p_start, p_end);
        delete from question_hold where id = any(p_hold_ids);
        select b.allowance_left, b.packs_left into v_allowance_left, v_packs_left
          from svc_balance(p_ws, p_start, p_end, p_allowance) b;
        for i in 1 .. coalesce(array_length(p_ids, 1), 0) loop
          v_from_allowance := least(p_questions[i], v_allowance_left);
          v_from_packs := least(p_questions[i] - v_from_allowance, v_packs_left);
          v_allowance_left := v_allowance_left - v_from_allowance;
          v_packs_left := v_packs_left - v_from_packs;
          insert into usage_ledger (id, workspace_id, key_id, user_id, kind, route, model_class, model,
                                    prompt_tokens, completion_tokens, total_tokens, questions, from_allowance, from_packs, created_at)
          values (p_ids[i], p_ws, p_key_ids[i], p_user_ids[i], 'question', p_routes[i], p_classes[i], p_models[i],
                  p_prompt[i], p_completion[i], p_total[i], p_questions[i], p_questions[i] - v_from_packs, v_from_packs, p_now);
        end loop;
      end $$`);
  }
}
