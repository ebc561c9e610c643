import { Migration } from '@mikro-orm/migrations';

const WS = 'varchar(64) not null references workspace(id) on delete cascade deferrable initially deferred';

/**
 * Knowledge (collections, sources with their original bytes, chunks with a full-text vector, facts,
 * contradictions, Q&A pairs, the ingestion job queue, agent links) and workspace HTTP tools.
 */
export class Migration20261122000500 extends Migration {
  override name = 'Migration20261122000500';

  override up(): void {
    this.addSql(`create table knowledge_collection (
      id varchar(64) primary key,
      workspace_id ${WS},
      user_id varchar(64) not null,
      name text not null,
      description text not null default '',
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql(`create index knowledge_collection_workspace_idx on knowledge_collection(workspace_id, created_at, id)`);

    this.addSql(`create table knowledge_source (
      id varchar(64) primary key,
      workspace_id ${WS},
      user_id varchar(64) not null,
      collection_id varchar(64) null references knowledge_collection(id) on delete set null deferrable initially deferred,
      name text not null,
      mime_type varchar(255) not null,
      size_bytes integer not null,
      sha256 varchar(64) not null,
      format varchar(16) null,
      title text null,
      status varchar(16) not null,
      error text null,
      chunk_count integer not null default 0,
      fact_count integer not null default 0,
      contradiction_count integer not null default 0,
      qa_count integer not null default 0,
      ingested_at timestamptz null,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql(`create index knowledge_source_workspace_idx on knowledge_source(workspace_id, created_at, id)`);
    this.addSql(`create index knowledge_source_collection_idx on knowledge_source(collection_id)`);

    // The uploaded bytes, apart from the source row so that lists never read them.
    this.addSql(`create table knowledge_document (
      source_id varchar(64) primary key references knowledge_source(id) on delete cascade deferrable initially deferred,
      workspace_id ${WS},
      content bytea not null
    )`);

    // search_vector is written by the ingestion SQL (see search.ts); an embedding column can sit beside it.
    this.addSql(`create table knowledge_chunk (
      id varchar(64) primary key,
      workspace_id ${WS},
      source_id varchar(64) not null references knowledge_source(id) on delete cascade deferrable initially deferred,
      ordinal integer not null,
      section text not null,
      page integer not null,
      text text not null,
      token_estimate integer not null,
      search_vector tsvector not null,
      created_at timestamptz not null
    )`);
    this.addSql(`create index knowledge_chunk_search_idx on knowledge_chunk using gin(search_vector)`);
    this.addSql(`create index knowledge_chunk_source_idx on knowledge_chunk(source_id, ordinal)`);
    this.addSql(`create index knowledge_chunk_workspace_idx on knowledge_chunk(workspace_id)`);

    this.addSql(`create table knowledge_fact (
      id varchar(64) primary key,
      workspace_id ${WS},
      source_id varchar(64) not null references knowledge_source(id) on delete cascade deferrable initially deferred,
      chunk_id varchar(64) null,
      subject text not null,
      subject_key text not null,
      value text not null,
      valid_until date null,
      statement text not null,
      stale_notified_at timestamptz null,
      created_at timestamptz not null
    )`);
    this.addSql(`create index knowledge_fact_subject_idx on knowledge_fact(workspace_id, subject_key)`);
    this.addSql(`create index knowledge_fact_stale_idx on knowledge_fact(valid_until) where valid_until is not null and stale_notified_at is null`);
    this.addSql(`create index knowledge_fact_source_idx on knowledge_fact(source_id)`);

    this.addSql(`create table knowledge_contradiction (
      id varchar(64) primary key,
      workspace_id ${WS},
      new_fact_id varchar(64) not null references knowledge_fact(id) on delete cascade deferrable initially deferred,
      existing_fact_id varchar(64) not null references knowledge_fact(id) on delete cascade deferrable initially deferred,
      severity varchar(16) not null,
      created_at timestamptz not null
    )`);
    this.addSql(`create index knowledge_contradiction_workspace_idx on knowledge_contradiction(workspace_id, created_at)`);
    this.addSql(`create index knowledge_contradiction_new_idx on knowledge_contradiction(new_fact_id)`);
    this.addSql(`create index knowledge_contradiction_existing_idx on knowledge_contradiction(existing_fact_id)`);

    this.addSql(`create table knowledge_qa_pair (
      id varchar(64) primary key,
      workspace_id ${WS},
      source_id varchar(64) not null references knowledge_source(id) on delete cascade deferrable initially deferred,
      chunk_id varchar(64) null,
      question text not null,
      answer text not null,
      created_at timestamptz not null
    )`);
    this.addSql(`create index knowledge_qa_pair_source_idx on knowledge_qa_pair(source_id)`);

    this.addSql(`create table knowledge_ingestion_job (
      id varchar(64) primary key,
      workspace_id ${WS},
      source_id varchar(64) not null references knowledge_source(id) on delete cascade deferrable initially deferred,
      status varchar(16) not null,
      attempts integer not null default 0,
      worker_id varchar(64) null,
      lease_expires_at timestamptz null,
      last_error text null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      finished_at timestamptz null
    )`);
    this.addSql(
      `create index knowledge_ingestion_job_pending_idx on knowledge_ingestion_job(created_at, id) where status in ('queued', 'running')`,
    );
    this.addSql(`create index knowledge_ingestion_job_source_idx on knowledge_ingestion_job(source_id)`);

    this.addSql(`create table agent_knowledge_link (
      id varchar(64) primary key,
      workspace_id ${WS},
      agent_id varchar(64) not null references agent(id) on delete cascade deferrable initially deferred,
      target_kind varchar(16) not null,
      target_id varchar(64) not null,
      created_at timestamptz not null
    )`);
    this.addSql(`create unique index agent_knowledge_link_unique_idx on agent_knowledge_link(agent_id, target_id)`);
    this.addSql(`create index agent_knowledge_link_target_idx on agent_knowledge_link(target_id)`);

    // Workspace HTTP tools.
    this.addSql(`create table workspace_tool (
      id varchar(64) primary key,
      workspace_id ${WS},
      user_id varchar(64) not null,
      name varchar(64) not null,
      description text not null,
      input_schema jsonb not null,
      method varchar(8) not null,
      url_template text not null,
      headers jsonb not null default '[]',
      timeout_ms integer not null,
      is_active boolean not null default true,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql(`create unique index workspace_tool_name_idx on workspace_tool(workspace_id, name)`);
    this.addSql(`create table agent_tool_link (
      id varchar(64) primary key,
      workspace_id ${WS},
      agent_id varchar(64) not null references agent(id) on delete cascade deferrable initially deferred,
      tool_id varchar(64) not null references workspace_tool(id) on delete cascade deferrable initially deferred,
      created_at timestamptz not null
    )`);
    this.addSql(`create unique index agent_tool_link_unique_idx on agent_tool_link(agent_id, tool_id)`);
    this.addSql(`create index agent_tool_link_tool_idx on agent_tool_link(tool_id)`);

    // Server-wide secrets generated on first start (the tool-header encryption key when none is configured).
    this.addSql(`create table server_secret (
      name varchar(64) primary key,
      value text not null,
      created_at timestamptz not null
    )`);
  }
}
