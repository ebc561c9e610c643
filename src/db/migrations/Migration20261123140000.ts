import { Migration } from '@mikro-orm/migrations';

/**
 * Conversations (issue 14): the gateway's `conversation` record becomes the debate's too (topic,
 * roster, status, latest synthesis and its certificate), and its messages get a table. Existing
 * records (named by gateway calls) read as `open` conversations with no debate.
 */
export class Migration20261123140000 extends Migration {
  override name = 'Migration20261123140000';

  override up(): void {
    this.addSql(`alter table conversation
      add column user_id varchar(64) null,
      add column topic text not null default '',
      add column rounds integer not null default 0,
      add column participants jsonb not null default '[]',
      add column collection_ids jsonb not null default '[]',
      add column status varchar(16) not null default 'open',
      add column synthesis jsonb null,
      add column proof_id varchar(64) null,
      add column updated_at timestamptz null`);
    this.addSql(`create table conversation_message (
      id varchar(64) primary key,
      workspace_id varchar(64) not null,
      conversation_id varchar(64) not null references conversation(id) on delete cascade,
      position integer not null,
      round integer not null,
      kind varchar(16) not null,
      agent_id varchar(64) null,
      agent_name text null,
      is_devils_advocate boolean not null default false,
      content text not null,
      knowledge_used jsonb not null default '[]',
      prompt_tokens integer not null default 0,
      completion_tokens integer not null default 0,
      total_tokens integer not null default 0,
      created_at timestamptz not null
    )`);
    this.addSql(`create unique index conversation_message_position_idx on conversation_message(conversation_id, position)`);
  }
}
