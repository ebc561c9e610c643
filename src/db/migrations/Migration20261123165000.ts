import { Migration } from '@mikro-orm/migrations';

/**
 * Passage embeddings for hybrid retrieval (issue 16; docs/knowledge.md, "Hybrid retrieval"). One row per
 * passage: the model that made it, its dimension and the unit-length vector as little-endian float32
 * bytes, readable on every engine. Where the database has pgvector, the app adds a `vec vector` column
 * and its indexes at start (src/modules/knowledge/vector-store.ts): a migration cannot name a type that
 * the extension may not provide.
 */
export class Migration20261123165000 extends Migration {
  override name = 'Migration20261123165000';

  override up(): void {
    this.addSql(`create table knowledge_chunk_embedding (
      chunk_id varchar(64) primary key references knowledge_chunk(id) on delete cascade,
      workspace_id varchar(64) not null references workspace(id) on delete cascade,
      model text not null,
      dims integer not null,
      embedding bytea not null,
      created_at timestamptz not null
    )`);
    this.addSql(`create index knowledge_chunk_embedding_workspace_idx on knowledge_chunk_embedding(workspace_id, model, dims)`);
  }
}
