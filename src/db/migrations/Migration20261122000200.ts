import { Migration } from '@mikro-orm/migrations';

/** Limits and metering: the questions ledger, question packs, key notifications and request counters. */
export class Migration20261122000200 extends Migration {
  override name = 'Migration20261122000200';

  override up(): void {
    this.addSql(`create table usage_ledger (
      id varchar(64) primary key,
      workspace_id varchar(64) not null references workspace(id) on delete cascade deferrable initially deferred,
      key_id varchar(64) null,
      user_id varchar(64) null,
      kind varchar(16) not null,
      route varchar(200) not null,
      model_class varchar(16) null,
      model text null,
      prompt_tokens integer not null default 0,
      completion_tokens integer not null default 0,
      total_tokens integer not null default 0,
      questions integer not null default 0,
      from_allowance integer not null default 0,
      from_packs integer not null default 0,
      created_at timestamptz not null
    )`);
    this.addSql(`create index usage_ledger_workspace_idx on usage_ledger(workspace_id, kind, created_at)`);
    this.addSql(`create index usage_ledger_key_idx on usage_ledger(key_id, kind, created_at)`);
    this.addSql(`create index usage_ledger_packs_idx on usage_ledger(workspace_id) where from_packs > 0`);
    this.addSql(`create table question_pack (
      id varchar(64) primary key,
      workspace_id varchar(64) not null references workspace(id) on delete cascade deferrable initially deferred,
      questions integer not null check (questions > 0),
      created_at timestamptz not null
    )`);
    this.addSql(`create index question_pack_workspace_idx on question_pack(workspace_id, created_at)`);
    this.addSql(`create table key_notification (
      id varchar(64) primary key,
      workspace_id varchar(64) not null references workspace(id) on delete cascade deferrable initially deferred,
      key_id varchar(64) not null,
      month varchar(7) not null,
      kind varchar(32) not null,
      used integer not null,
      ceiling integer not null,
      message text not null,
      created_at timestamptz not null,
      unique (key_id, month, kind)
    )`);
    this.addSql(`create index key_notification_workspace_idx on key_notification(workspace_id, created_at)`);
    // Request counters per calendar minute, shared by every process on the database.
    this.addSql(`create table rate_counter (
      bucket varchar(300) not null,
      minute bigint not null,
      count integer not null,
      primary key (bucket, minute)
    )`);
    this.addSql(`create index rate_counter_minute_idx on rate_counter(minute)`);
  }
}
