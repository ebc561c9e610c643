import { Migration } from '@mikro-orm/migrations';

/**
 * Dossiers, postes and poste runs (issue 16). A dossier is a knowledge collection of kind `dossier`
 * (docs/light.md): same table, so search, links and the verifier read it like any collection; it may
 * name its client (`client_name`, removed from web queries). A poste is an agent installed from the
 * catalogue under a key, once per workspace; deleting its agent uninstalls it. A run keeps its report.
 */
export class Migration20261123160000 extends Migration {
  override name = 'Migration20261123160000';

  override up(): void {
    this.addSql(`alter table knowledge_collection add column kind text not null default 'collection'`);
    this.addSql(`alter table knowledge_collection add column client_name text null`);
    this.addSql(`create index knowledge_collection_kind_idx on knowledge_collection(workspace_id, kind, created_at)`);
    this.addSql(`create table poste (
      id varchar(64) primary key,
      workspace_id varchar(64) not null references workspace(id) on delete cascade,
      key text not null,
      agent_id varchar(64) not null references agent(id) on delete cascade,
      installed_by varchar(64) not null,
      created_at timestamptz not null,
      unique (workspace_id, key)
    )`);
    this.addSql(`create table poste_run (
      id varchar(64) primary key,
      workspace_id varchar(64) not null references workspace(id) on delete cascade,
      poste_key text not null,
      agent_id varchar(64) null,
      dossier_id varchar(64) not null,
      user_id varchar(64) not null,
      status text not null,
      instructions text null,
      items jsonb not null,
      proof_id varchar(64) null,
      total_tokens integer not null default 0,
      created_at timestamptz not null,
      finished_at timestamptz null
    )`);
    this.addSql(`create index poste_run_list_idx on poste_run(workspace_id, created_at desc)`);
  }
}
