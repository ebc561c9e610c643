import { Migration } from '@mikro-orm/migrations';

/**
 * Question holds are committed without waiting for the WAL flush (`synchronous_commit = off` for that
 * transaction only). A hold lives only while its answer runs and expires by itself; after a database
 * crash the answers it held for are gone with the connections that carried them, so losing the hold loses
 * nothing. The ledger and the proof chain, which must survive, keep synchronous commits.
 * docs/decisions.md, "One write for many requests".
 */
export class Migration20261123120300 extends Migration {
  override name = 'Migration20261123120300';

  override up(): void {
    this.addSql(`create or replace function svc_admit(
        p_ws text, p_now timestamptz, p_start timestamptz, p_end timestamptz, p_allowance bigint,
        p_required int[], p_ids text[], p_expires timestamptz)
      returns bigint[] language plpgsql as $$
      declare
        v_used bigint; v_bought bigint; v_packs_used bigint; v_held bigint; v_available bigint;
        v_out bigint[] := '{}';
      begin
        perform set_config('synchronous_commit', 'off', true);
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
  }
}
