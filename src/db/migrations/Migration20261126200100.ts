import { Migration } from '@mikro-orm/migrations';

/**
 * The allowance rule in one place (docs/questions.md): `svc_balance` is the only code that reads a
 * workspace's balance from the ledger — the monthly allowance used in the window, packs bought and used,
 * questions held — and says what is left of each. `svc_admit` and `svc_record` (which repeated the same
 * four sums) call it, and so does the usage module's `readBalance` (which repeated it in TypeScript).
 * Behaviour is unchanged: the same sums, the same order of steps under the same workspace lock.
 */
export class Migration20261126200100 extends Migration {
  override name = 'Migration20261126200100';

  override up(): void {
    this.addSql(`create or replace function svc_balance(p_ws text, p_start timestamptz, p_end timestamptz, p_allowance bigint)
      returns table (allowance_used bigint, packs_bought bigint, packs_used bigint, held bigint, allowance_left bigint, packs_left bigint)
      language sql stable as $$
        select u.used, b.bought, p.used, h.held, greatest(0, p_allowance - u.used), greatest(0, b.bought - p.used)
          from (select coalesce(sum(from_allowance), 0)::bigint as used from usage_ledger
                 where workspace_id = p_ws and kind = 'question' and created_at >= p_start and created_at < p_end) u,
               (select coalesce(sum(questions), 0)::bigint as bought from question_pack where workspace_id = p_ws) b,
               (select coalesce(sum(from_packs), 0)::bigint as used from usage_ledger where workspace_id = p_ws and from_packs > 0) p,
               (select coalesce(sum(questions), 0)::bigint as held from question_hold where workspace_id = p_ws) h
      $$`);
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
