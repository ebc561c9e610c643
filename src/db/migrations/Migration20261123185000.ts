import { Migration } from '@mikro-orm/migrations';

/**
 * Embeddable widgets (issue 18, docs/widgets.md): a public identifier the page's script tag names, the
 * origins allowed to use it, its monthly ceiling in questions and its per-IP request rate, and what
 * answers (an agent, or the light family). `agent_id` is not a foreign key: a deleted agent leaves the
 * widget in place, answering that the agent is gone, until it is pointed at another one.
 */
export class Migration20261123185000 extends Migration {
  override name = 'Migration20261123185000';

  override up(): void {
    this.addSql(`create table widget (
      id varchar(64) primary key,
      workspace_id varchar(64) not null references workspace(id) on delete cascade deferrable initially deferred,
      user_id varchar(64) not null,
      public_id varchar(64) not null unique,
      name text not null,
      greeting text null,
      family varchar(16) not null,
      agent_id varchar(64) null,
      allowed_origins jsonb not null,
      monthly_question_limit integer not null,
      ip_rate_per_minute integer not null,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql(`create index widget_workspace_idx on widget(workspace_id, created_at)`);
  }
}
