import type { Deps } from '../../core/deps.js';
import type { Em } from '../../db/types.js';
import { newId } from '../../lib/ids.js';
import { publishEvent } from '../webhooks/index.js';
import { IngestionFailure, type IngestionResult } from './analyse.js';
import { insertChunks, readDocument, yieldToLoop } from './knowledge.repository.js';
import { KnowledgeContradiction, KnowledgeFact, KnowledgeQaPair, KnowledgeSource } from './knowledge.entity.js';
import { contradictionSeverity, factsContradict, normalizeSubject } from './parsing/facts.js';

/** Existing facts of one subject compared with each new fact (most recent first). */
const MAX_COMPARED_PER_SUBJECT = 50;
/** Contradictions recorded (and published) per ingested document; further clashes are not recorded. */
const MAX_CONTRADICTIONS_PER_SOURCE = 100;

/** Rows per multi-row insert of facts and Q&A pairs. */
const INSERT_BATCH = 500;

/** The deferrable foreign keys of the tables an ingestion fills in bulk (see the migration that creates them). */
const DEFERRED_KEYS_CHECKED_PER_BATCH = ['knowledge_chunk', 'knowledge_fact', 'knowledge_qa_pair'].flatMap((table) => [
  `${table}_workspace_id_fkey`,
  `${table}_source_id_fkey`,
]);

/** The pure part (parse, chunk, extract) lives in analyse.ts; ingestion runs it on the parsing thread (document-analyser.ts). */
export { analyseDocument, IngestionFailure, type IngestionResult } from './analyse.js';

export async function loadDocumentBytes(em: Em, source: KnowledgeSource): Promise<Buffer> {
  const bytes = await readDocument(em, { sourceId: source.id, workspaceId: source.workspaceId });
  if (!bytes) throw new IngestionFailure('The original document is missing');
  return bytes;
}

/**
 * Writes the passages, facts and Q&A pairs of a parsed document, records contradictions with the
 * workspace's existing facts, marks the source ready and publishes `source.ingested` and
 * `knowledge.contradiction_detected`, all through `tx` (one transaction with the caller's job update).
 */
export async function commitIngestion(app: Deps, tx: Em, source: KnowledgeSource, result: IngestionResult): Promise<void> {
  const now = app.clock.now();
  // The foreign keys of the rows written below are deferred (checked at commit): tens of thousands of
  // checks would then run inside the single COMMIT statement, which on the embedded database holds the
  // event loop (about 0.5 s for 16 MB of text). Checked with each batch instead; same rules, same cost.
  await tx.execute(`set constraints ${DEFERRED_KEYS_CHECKED_PER_BATCH.join(', ')} immediate`);
  await insertChunks(tx, { workspaceId: source.workspaceId, sourceId: source.id, createdAt: now, chunks: result.chunks });
  // Multi-row inserts in batches, awaited one after another with a loop turn between them: a document with
  // thousands of facts neither builds one huge unit of work nor holds the event loop while it is written
  // (on the embedded database a statement runs on the main thread: knowledge.repository.ts, isEmbedded).
  const facts = result.facts.map((f) => ({
    id: f.id,
    workspaceId: source.workspaceId,
    sourceId: source.id,
    chunkId: f.chunkId,
    subject: f.subject,
    subjectKey: normalizeSubject(f.subject),
    value: f.value,
    validUntil: f.validUntil,
    statement: f.statement,
    staleNotifiedAt: null,
    createdAt: now,
  }));
  for (let i = 0; i < facts.length; i += INSERT_BATCH) {
    await yieldToLoop();
    await tx.insertMany(KnowledgeFact, facts.slice(i, i + INSERT_BATCH));
  }
  const qaPairs = result.qaPairs.map((q) => ({
    id: q.id,
    workspaceId: source.workspaceId,
    sourceId: source.id,
    chunkId: q.chunkId,
    question: q.question,
    answer: q.answer,
    createdAt: now,
  }));
  for (let i = 0; i < qaPairs.length; i += INSERT_BATCH) {
    await yieldToLoop();
    await tx.insertMany(KnowledgeQaPair, qaPairs.slice(i, i + INSERT_BATCH));
  }
  await yieldToLoop();
  const contradictions = await detectContradictions(app, tx, source, result.facts, now);

  await yieldToLoop();
  source.status = 'ready';
  source.error = null;
  source.format = result.format;
  source.title = result.title;
  source.chunkCount = result.chunks.length;
  source.factCount = result.facts.length;
  source.contradictionCount = contradictions;
  source.qaCount = result.qaPairs.length;
  source.ingestedAt = now;
  source.updatedAt = now;
  await publishEvent({ em: tx, clock: app.clock, app }, {
    name: 'source.ingested',
    workspaceId: source.workspaceId,
    actorUserId: source.userId,
    payload: {
      sourceId: source.id,
      name: source.name,
      chunkCount: source.chunkCount,
      factCount: source.factCount,
      contradictionCount: source.contradictionCount,
      qaCount: source.qaCount,
    },
  });
  await tx.flush();
}

/**
 * A new fact contradicts an existing fact of the workspace when their normalised subjects are equal and
 * their values differ (factsContradict). Existing facts are those of other ready sources; each new fact
 * is compared with the 50 most recent facts of its subject, and at most 100 contradictions are recorded
 * per document. Returns how many were recorded.
 */
async function detectContradictions(
  app: Deps,
  tx: Em,
  source: KnowledgeSource,
  facts: IngestionResult['facts'],
  now: Date,
): Promise<number> {
  if (facts.length === 0) return 0;
  const keys = [...new Set(facts.map((f) => normalizeSubject(f.subject)))];
  const existing = await tx.execute<{ id: string; subject: string; subject_key: string; value: string; valid_until: string | null; source_name: string }[]>(
    `select f.id, f.subject, f.subject_key, f.value, f.valid_until::text as valid_until, s.name as source_name
       from knowledge_fact f join knowledge_source s on s.id = f.source_id
      where f.workspace_id = ? and s.status = 'ready' and f.source_id <> ? and f.subject_key in (${keys.map(() => '?').join(', ')})
      order by f.created_at desc, f.id desc`,
    [source.workspaceId, source.id, ...keys],
  );
  const bySubject = new Map<string, typeof existing>();
  for (const row of existing) {
    const list = bySubject.get(row.subject_key) ?? [];
    if (list.length < MAX_COMPARED_PER_SUBJECT) list.push(row);
    bySubject.set(row.subject_key, list);
  }
  let recorded = 0;
  for (const fact of facts) {
    for (const old of bySubject.get(normalizeSubject(fact.subject)) ?? []) {
      if (recorded >= MAX_CONTRADICTIONS_PER_SOURCE) return recorded;
      if (!factsContradict(fact, { subject: old.subject, value: old.value })) continue;
      const severity = contradictionSeverity(fact, { value: old.value, validUntil: old.valid_until }, now);
      const contradiction = tx.create(KnowledgeContradiction, {
        id: newId('kcon'),
        workspaceId: source.workspaceId,
        newFactId: fact.id,
        existingFactId: old.id,
        severity,
        createdAt: now,
      });
      recorded++;
      await publishEvent({ em: tx, clock: app.clock, app }, {
        name: 'knowledge.contradiction_detected',
        workspaceId: source.workspaceId,
        actorUserId: source.userId,
        payload: {
          contradictionId: contradiction.id,
          severity,
          // SPEC fields exactly: `source` is the document's name (docs/knowledge.md, Events).
          newFact: { id: fact.id, source: source.name },
          existingFact: { id: old.id, source: old.source_name },
        },
      });
    }
  }
  app.log.debug({ sourceId: source.id, recorded }, 'contradictions recorded');
  return recorded;
}

/** Marks the source failed with a user-facing reason and publishes `source.failed`, through `tx`. */
export async function commitFailure(app: Deps, tx: Em, source: KnowledgeSource, reason: string): Promise<void> {
  const now = app.clock.now();
  source.status = 'failed';
  source.error = reason;
  source.updatedAt = now;
  await publishEvent({ em: tx, clock: app.clock, app }, {
    name: 'source.failed',
    workspaceId: source.workspaceId,
    actorUserId: source.userId,
    payload: { sourceId: source.id, name: source.name, error: reason },
  });
  await tx.flush();
}
