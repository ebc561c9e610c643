import { Migration } from '@mikro-orm/migrations';

/**
 * Flows (issue 15): flows, their runs, the runs' steps, approvals and the runs' event log (what the
 * run stream replays and follows). Runs are claimed with `FOR UPDATE SKIP LOCKED` and a lease, like
 * webhook deliveries and ingestion jobs (docs/flows.md, "Execution").
 */
export class Migration20261123150000 extends Migration {
  override name = 'Migration20261123150000';

  override up(): void {
    this.addSql(`create table flow (
      id varchar(64) primary key,
      workspace_id varchar(64) not null references workspace(id) on delete cascade,
      user_id varchar(64) not null,
      name text not null,
      enabled boolean not null,
      version integer not null,
      graph jsonb not null,
      unattended_outbound boolean not null default false,
      unattended_by varchar(64) null,
      webhook_secret text not null,
      next_due_at timestamptz null,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql(`create index flow_workspace_idx on flow(workspace_id, created_at, id)`);
    this.addSql(`create index flow_due_idx on flow(next_due_at) where enabled and next_due_at is not null`);

    this.addSql(`create table flow_run (
      id varchar(64) primary key,
      workspace_id varchar(64) not null references workspace(id) on delete cascade,
      flow_id varchar(64) not null references flow(id) on delete cascade deferrable initially deferred,
      flow_name text not null,
      flow_version integer not null,
      graph jsonb not null,
      user_id varchar(64) not null,
      trigger varchar(16) not null,
      input jsonb not null,
      status varchar(24) not null,
      error text null,
      error_code varchar(64) null,
      due_at timestamptz null,
      lease_until timestamptz null,
      lease_token varchar(64) null,
      scheduled_for timestamptz null,
      created_at timestamptz not null,
      finished_at timestamptz null,
      updated_at timestamptz not null
    )`);
    this.addSql(`create index flow_run_history_idx on flow_run(flow_id, created_at desc, id desc)`);
    this.addSql(`create index flow_run_claim_idx on flow_run(due_at) where status in ('queued', 'running', 'waiting')`);
    this.addSql(`create unique index flow_run_schedule_once on flow_run(flow_id, scheduled_for) where scheduled_for is not null`);

    this.addSql(`create table flow_step (
      id varchar(64) primary key,
      workspace_id varchar(64) not null,
      run_id varchar(64) not null references flow_run(id) on delete cascade deferrable initially deferred,
      node_key text not null,
      node_type varchar(32) not null,
      status varchar(16) not null,
      attempts integer not null,
      output jsonb null,
      summary text null,
      error text null,
      error_code varchar(64) null,
      idempotency_key varchar(160) null,
      resume_at timestamptz null,
      started_at timestamptz not null,
      finished_at timestamptz null,
      unique (run_id, node_key)
    )`);

    this.addSql(`create table flow_approval (
      id varchar(64) primary key,
      workspace_id varchar(64) not null references workspace(id) on delete cascade,
      run_id varchar(64) not null references flow_run(id) on delete cascade deferrable initially deferred,
      flow_id varchar(64) not null,
      flow_name text not null,
      node_key text not null,
      question text not null,
      data jsonb null,
      status varchar(16) not null,
      claimed_by varchar(64) null,
      claimed_at timestamptz null,
      decided_by varchar(64) null,
      decided_at timestamptz null,
      comment text null,
      expires_at timestamptz not null,
      created_at timestamptz not null
    )`);
    this.addSql(`create index flow_approval_list_idx on flow_approval(workspace_id, created_at desc, id desc)`);
    this.addSql(`create index flow_approval_expiry_idx on flow_approval(expires_at) where status in ('open', 'claimed')`);

    this.addSql(`create table flow_run_event (
      seq bigint generated always as identity primary key,
      run_id varchar(64) not null references flow_run(id) on delete cascade deferrable initially deferred,
      type varchar(32) not null,
      data jsonb not null,
      created_at timestamptz not null
    )`);
    this.addSql(`create index flow_run_event_run_idx on flow_run_event(run_id, seq)`);
  }
}
