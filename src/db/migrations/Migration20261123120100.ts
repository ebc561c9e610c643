import { Migration } from '@mikro-orm/migrations';

/**
 * The hot path's metering steps as single statements (docs/decisions.md, "One write for many requests").
 * Each function runs its steps under the workspace row lock in one autocommitted statement: one round
 * trip instead of a transaction of five or six. PL/pgSQL statements take a fresh snapshot each (the
 * functions are VOLATILE), so what the previous lock holder committed is seen once the lock is held.
 *
 * The lock is FOR NO KEY UPDATE: it serialises the workspace's metering as before, but no longer blocks
 * the foreign-key checks (FOR KEY SHARE) that every insert of a row referencing the workspace makes at
 * commit, such as a certificate appended at that moment.
 *
 * - `svc_admit`: drops expired holds, reads the balance and the live holds, then admits the batch's
 *   answers in order while enough questions are left, inserting a hold for each; returns, per answer,
 *   the questions available when its turn came (admitted when it covered `required`).
 * - `svc_record`: gives back the batch's holds and appends its answers to the ledger, the monthly
 *   allowance used before packs, answer after answer; past zero the overrun is charged to the allowance.
 * - `svc_chain_head`: takes the workspace's proof-chain lock for the caller's transaction and returns
 *   the last link (none for an empty chain).
 */
export class Migration20261123120100 extends Migration {
  override name = 'Migration20261123120100';

  override up(): void {
    this.addSql(`create or replace function svc_admit(
        p_ws text, p_now timestamptz, p_start timestamptz, p_end timestamptz, p_allowance bigint,
        p_required int[], p_ids text[], p_expires timestamptz)
      returns bigint[] language plpgsql as $$
      declare
        v_used bigint; v_bought bigint; v_packs_used bigint; v_held bigint; v_available bigint;
        v_out bigint[] := '{}';
      begin
        perform 1 from workspace where id = p_ws for no key update;
        delete from question_hold where workspace_id = p_ws and expires_at <= p_now;
        select coalesce(sum(from_allowance), 0) into v_used from usage_ledger
         where workspace_id = p_ws and kind = 'question' and created_at >= p_start and created_at < p_end;
        select coalesce(sum(questions), 0) into v_bought from question_pack where workspace_id = p_ws;
        select coalesce(sum(from_packs), 0) into v_packs_used from usage_ledger where workspace_id = p_ws and from_packs > 0;
        select coalesce(sum(questions), 0) into v_held from question_hold where workspace_id = p_ws;
        v_available := greatest(0, greatest(0, p_allowance - v_used) + greatest(0, v_bought - v_packs_used) - v_held);
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
        p_ws text, p_now timestamptz, p_start timestamptz, p_end timestamptz, p_allowance bigint, p_hold_ids text[],
        p_ids text[], p_key_ids text[], p_user_ids text[], p_routes text[], p_classes text[], p_models text[],
        p_prompt int[], p_completion int[], p_total int[], p_questions int[])
      returns void language plpgsql as $$
      declare
        v_used bigint; v_bought bigint; v_packs_used bigint; v_allowance_left bigint; v_packs_left bigint;
        v_from_allowance bigint; v_from_packs bigint;
      begin
        perform 1 from workspace where id = p_ws for no key update;
        delete from question_hold where id = any(p_hold_ids);
        select coalesce(sum(from_allowance), 0) into v_used from usage_ledger
         where workspace_id = p_ws and kind = 'question' and created_at >= p_start and created_at < p_end;
        select coalesce(sum(questions), 0) into v_bought from question_pack where workspace_id = p_ws;
        select coalesce(sum(from_packs), 0) into v_packs_used from usage_ledger where workspace_id = p_ws and from_packs > 0;
        v_allowance_left := greatest(0, p_allowance - v_used);
        v_packs_left := greatest(0, v_bought - v_packs_used);
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
    this.addSql(`create or replace function svc_chain_head(p_ws text)
      returns table (seq integer, hash text) language plpgsql as $$
      begin
        perform pg_advisory_xact_lock(hashtext('svc.proof-chain'), hashtext(p_ws));
        return query select c.seq, c.hash::text from proof_certificate c where c.workspace_id = p_ws order by c.seq desc limit 1;
      end $$`);
  }

  override down(): void {
    this.addSql('drop function if exists svc_admit(text, timestamptz, timestamptz, timestamptz, bigint, int[], text[], timestamptz)');
    this.addSql('drop function if exists svc_record(text, timestamptz, timestamptz, timestamptz, bigint, text[], text[], text[], text[], text[], text[], text[], int[], int[], int[], int[])');
    this.addSql('drop function if exists svc_chain_head(text)');
  }
}
