import { Migration } from '@mikro-orm/migrations';

/** Tenancy, keys and agents (platform foundation). */
export class Migration20261122000100 extends Migration {
  override name = 'Migration20261122000100';

  override up(): void {
    this.addSql(`create table workspace (
      id varchar(64) primary key,
      name text not null,
      plan varchar(32) not null,
      seats integer not null default 1,
      subscription_started_at timestamptz not null,
      subscription_active boolean not null default true,
      suspended boolean not null default false,
      created_at timestamptz not null
    )`);
    this.addSql(`create table app_user (
      id varchar(64) primary key,
      workspace_id varchar(64) not null references workspace(id) on delete cascade deferrable initially deferred,
      name text null,
      created_at timestamptz not null
    )`);
    this.addSql(`create index app_user_workspace_idx on app_user(workspace_id)`);
    this.addSql(`create table api_key (
      id varchar(64) primary key,
      workspace_id varchar(64) not null references workspace(id) on delete cascade deferrable initially deferred,
      user_id varchar(64) not null,
      name text null,
      secret_hash varchar(64) not null unique,
      preview varchar(32) not null,
      scopes jsonb not null default '[]',
      readonly boolean not null default false,
      rate_per_minute integer null,
      monthly_question_limit integer null,
      expires_at timestamptz null,
      revoked_at timestamptz null,
      created_by_key_id varchar(64) null,
      created_at timestamptz not null
    )`);
    this.addSql(`create index api_key_workspace_idx on api_key(workspace_id)`);
    this.addSql(`create table agent (
      id varchar(64) primary key,
      workspace_id varchar(64) not null references workspace(id) on delete cascade deferrable initially deferred,
      user_id varchar(64) not null,
      name text not null,
      role text not null,
      personality text not null,
      mission text not null,
      decision_style text not null,
      system_prompt text not null,
      is_devils_advocate boolean not null default false,
      expertise jsonb not null default '[]',
      out_of_scope jsonb not null default '[]',
      collection_scope jsonb not null default '[]',
      checklist jsonb not null default '[]',
      is_shared boolean not null default false,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql(`create index agent_workspace_created_idx on agent(workspace_id, created_at, id)`);
    this.addSql(`create table agent_memory (
      id varchar(64) primary key,
      workspace_id varchar(64) not null references workspace(id) on delete cascade deferrable initially deferred,
      agent_id varchar(64) not null,
      user_id varchar(64) not null,
      session_id varchar(64) null,
      key text not null,
      value text not null,
      type varchar(32) not null,
      provenance varchar(64) not null,
      salience double precision not null,
      created_at timestamptz not null
    )`);
    this.addSql(`create index agent_memory_agent_idx on agent_memory(workspace_id, agent_id)`);
  }
}
