import { Migration } from '@mikro-orm/migrations';

/** Agent chat: sessions and their messages; memory recall index. */
export class Migration20261122000400 extends Migration {
  override name = 'Migration20261122000400';

  override up(): void {
    this.addSql(`create table chat_session (
      id varchar(64) primary key,
      workspace_id varchar(64) not null references workspace(id) on delete cascade deferrable initially deferred,
      user_id varchar(64) not null,
      agent_id varchar(64) null,
      title text not null,
      message_count integer not null default 0,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql(`create index chat_session_owner_idx on chat_session(workspace_id, user_id, updated_at desc, id desc)`);
    this.addSql(`create table chat_message (
      id varchar(64) primary key,
      workspace_id varchar(64) not null references workspace(id) on delete cascade deferrable initially deferred,
      session_id varchar(64) not null references chat_session(id) on delete cascade deferrable initially deferred,
      position integer not null,
      role varchar(16) not null,
      content text not null,
      agent_id varchar(64) null,
      agent_name text null,
      model text null,
      prompt_tokens integer not null default 0,
      completion_tokens integer not null default 0,
      total_tokens integer not null default 0,
      mood jsonb null,
      created_at timestamptz not null
    )`);
    this.addSql(`create unique index chat_message_position_idx on chat_message(session_id, position)`);
    this.addSql(`create index agent_memory_owner_idx on agent_memory(workspace_id, agent_id, user_id, created_at)`);
  }
}
