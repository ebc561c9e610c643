import { Migration } from '@mikro-orm/migrations';

/**
 * `svc_record` writes a batch's ledger rows in one statement instead of one insert per row (issue 28,
 * docs/performance.md "seventh pass: overlapping answer writes"). The ledger's totals trigger
 * (Migration20261126231203, per statement) ran once per row of a batch, up to about 100 times for the gateway's
 * answer-write batch at 100 connections, each time locking the workspace row again and updating the window,
 * pack and key-month totals, all under the workspace row lock `svc_record` holds until its commit; it now runs
 * once per batch. The split between allowance and packs is the loop's, computed from the batch's running sum
 * of questions in arrival order (questions are never negative): through row i the allowance gives
 * min(sum, allowance left) and the packs min(max(0, sum − allowance left), packs left); a row's
 * `from_allowance` is still its questions less what the packs gave.
 */
export class Migration20261127103000 extends Migration {
  override name = 'Migration20261127103000';

  override up(): void {
    this.addSql(`create or replace function svc_record(
        p_ws text, p_now timestamptz, p_start timestamptz, p_end timestamptz, p_allowance bigint,
        p_hold_ids text[], p_ids text[], p_key_ids text[], p_user_ids text[], p_routes text[], p_classes text[],
        p_models text[], p_prompt int[], p_completion int[], p_total int[], p_questions int[]) returns void
      language plpgsql as $$
      declare
        v_allowance_left bigint; v_packs_left bigint;
      begin
        perform 1 from workspace where id = p_ws for no key update;
        perform svc_window_open(p_ws, p_start, p_end);
        delete from question_hold where id = any(p_hold_ids);
        select b.allowance_left, b.packs_left into v_allowance_left, v_packs_left
          from svc_balance(p_ws, p_start, p_end, p_allowance) b;
        insert into usage_ledger (id, workspace_id, key_id, user_id, kind, route, model_class, model,
                                  prompt_tokens, completion_tokens, total_tokens, questions, from_allowance, from_packs, created_at)
        select r.id, p_ws, r.key_id, r.user_id, 'question', r.route, r.class, r.model,
               r.prompt, r.completion, r.total, r.q, r.q - r.packs, r.packs, p_now
          from (select u.*,
                       least(greatest(0, u.through - v_allowance_left), v_packs_left)
                         - least(greatest(0, u.through - u.q - v_allowance_left), v_packs_left) as packs
                  from (select t.*, sum(t.q) over (order by t.n rows unbounded preceding) as through
                          from unnest(p_ids, p_key_ids, p_user_ids, p_routes, p_classes, p_models, p_prompt, p_completion, p_total, p_questions)
                               with ordinality as t(id, key_id, user_id, route, class, model, prompt, completion, total, q, n)) u) r
         order by r.n;
      end $$`);
  }

  override down(): void {
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
