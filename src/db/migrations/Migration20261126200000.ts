import { Migration } from '@mikro-orm/migrations';

/** Embedding sizes of the common models (384: MiniLM/bge-small, 768: bge-base/nomic, 1024: bge-large/mxbai, 1536: text-embedding-3-small/ada-002…). */
export const INDEXED_VECTOR_DIMS = [256, 384, 512, 768, 1024, 1536] as const;

/**
 * pgvector, where the server offers it (docs/knowledge.md, "Hybrid retrieval"): the extension, the
 * `vec vector` column beside the float32 bytes of `knowledge_chunk_embedding`, and a partial HNSW index per
 * common embedding size (a vector of another size is ranked by an exact scan). This DDL used to run at
 * start in vector-store.ts; it lives here so that the schema is changed by migrations only. Without the
 * extension (Debian's PostgreSQL 15, PGlite) nothing changes; an extension the role may not create is a
 * notice, not a failed start, and vectors are then ranked in process.
 */
export class Migration20261126200000 extends Migration {
  override name = 'Migration20261126200000';

  override up(): void {
    const indexes = INDEXED_VECTOR_DIMS.map(
      (d) =>
        `create index if not exists knowledge_chunk_embedding_vec_${d}_idx on knowledge_chunk_embedding using hnsw ((vec::vector(${d})) vector_cosine_ops) where dims = ${d};`,
    ).join('\n          ');
    this.addSql(`
      do $$
      begin
        if exists (select 1 from pg_available_extensions where name = 'vector') then
          create extension if not exists vector;
          alter table knowledge_chunk_embedding add column if not exists vec vector;
          ${indexes}
        end if;
      exception when others then
        raise notice 'pgvector is offered but could not be enabled (%): passage vectors are ranked in process', sqlerrm;
      end
      $$;`);
  }
}
