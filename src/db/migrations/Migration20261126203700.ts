import { Migration } from '@mikro-orm/migrations';

/**
 * The audit log (docs/operations.md, "Audit log"): one row per change of who can do what in a workspace,
 * written in the transaction of the change. `seq` orders the list (it only grows, so pages stay stable
 * while entries arrive). Append-only: a trigger refuses every UPDATE, DELETE and TRUNCATE, whoever asks;
 * an operator who must prune it disables the trigger on purpose (documented).
 */
export class Migration20261126203700 extends Migration {
  override name = 'Migration20261126203700';

  override up(): void {
    this.addSql(`create table audit_entry (
      id varchar(64) primary key,
      seq bigint generated always as identity,
      workspace_id varchar(64) not null,
      at timestamptz not null,
      action varchar(64) not null,
      actor_type varchar(16) not null,
      actor_key_id varchar(64) null,
      actor_user_id varchar(64) null,
      actor_email varchar(320) null,
      target_type varchar(32) not null,
      target_id varchar(64) null,
      details jsonb not null default '{}',
      address varchar(64) null,
      request_id varchar(128) null
    )`);
    this.addSql(`create unique index audit_entry_seq_idx on audit_entry(seq)`);
    this.addSql(`create index audit_entry_list_idx on audit_entry(workspace_id, seq desc)`);
    this.addSql(`create index audit_entry_action_idx on audit_entry(workspace_id, action, seq desc)`);
    this.addSql(`create function svc_audit_append_only() returns trigger language plpgsql as $$
      begin
        raise exception 'audit_entry is append-only: % refused', tg_op using errcode = '42501';
      end $$`);
    this.addSql(`create trigger audit_entry_append_only before update or delete on audit_entry
      for each row execute function svc_audit_append_only()`);
    this.addSql(`create trigger audit_entry_no_truncate before truncate on audit_entry
      for each statement execute function svc_audit_append_only()`);
  }
}
