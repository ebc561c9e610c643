import { setImmediate as nextTurn } from 'node:timers/promises';
import type { AppServices } from '../../app/services.js';
import type { Em } from '../../db/orm.js';
import { isDomainError } from '../../errors/index.js';
import { newId } from '../../lib/ids.js';
import { publishEvent } from '../webhooks/events.js';
import { insertChunks, readDocument, type ChunkRow } from './knowledge.repository.js';
import { KnowledgeContradiction, KnowledgeFact, KnowledgeQaPair, KnowledgeSource } from './knowledge.entity.js';
import { chunkDocument } from './parsing/chunk.js';
import { contradictionSeverity, extractFacts, factsContradict, normalizeSubject, type ExtractedFact } from './parsing/facts.js';
import { parseDocument } from './parsing/parse-document.js';
import { extractQaPairs, type QaPair } from './parsing/qa.js';
import type { DocumentFormat } from './parsing/types.js';

/** Existing facts of one subject compared with each new fact (most recent first). */
const MAX_COMPARED_PER_SUBJECT = 50;
/** Contradictions recorded (and published) per ingested document; further clashes are not recorded. */
const MAX_CONTRADICTIONS_PER_SOURCE = 100;
/** Facts kept per document; a document stating more keeps its first 5 000. */
const MAX_FACTS_PER_SOURCE = 5_000;

/** What parsing produced, before anything is written. */
export interface IngestionResult {
  format: DocumentFormat;
  title: string | null;
  chunks: ChunkRow[];
  facts: (ExtractedFact & { id: string; chunkId: string | null })[];
  qaPairs: (QaPair & { id: string; chunkId: string | null })[];
}

/** A failure meant for the user: it becomes the source's `error` and `source.failed.error`. */
export class IngestionFailure extends Error {}

/**
 * Parses, chunks and extracts: CPU work, done outside any transaction, on the main thread; the event
 * loop gets a turn between the phases, but a phase runs in one piece: on a 25 MB text document each
 * takes one to three seconds (see docs/knowledge.md, Known limit). Unsupported or unreadable documents throw IngestionFailure with the parser's
 * user-facing reason.
 */
export async function analyseDocument(input: { bytes: Buffer; filename: string; mimeType: string }): Promise<IngestionResult> {
  let parsed;
  try {
    parsed = await parseDocument({ bytes: input.bytes, filename: input.filename, mimeType: input.mimeType });
  } catch (err) {
    // The parsing layer throws catalogue errors (415 unsupported, 422 unreadable) whose message is for the user.
    if (isDomainError(err)) throw new IngestionFailure(err.message);
    throw err;
  }
  await nextTurn();
  const chunks = chunkDocument(parsed);
  if (chunks.length === 0) throw new IngestionFailure('The document has no extractable text');
  const rows: ChunkRow[] = chunks.map((c) => ({
    id: newId('kchk'),
    ordinal: c.ordinal,
    section: c.section,
    page: c.page,
    text: c.text,
    tokenEstimate: c.tokenEstimate,
  }));
  const chunkIdOf = (ordinal: number): string | null => rows[ordinal]?.id ?? null;
  await nextTurn();
  const facts = extractFacts(chunks)
    .slice(0, MAX_FACTS_PER_SOURCE)
    .map((f) => ({ ...f, id: newId('kfct'), chunkId: chunkIdOf(f.chunkOrdinal) }));
  await nextTurn();
  const qaPairs = extractQaPairs(chunks).map((q) => ({ ...q, id: newId('kqa'), chunkId: chunkIdOf(q.chunkOrdinal) }));
  return { format: parsed.format, title: parsed.title ?? null, chunks: rows, facts, qaPairs };
}

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
export async function commitIngestion(app: AppServices, tx: Em, source: KnowledgeSource, result: IngestionResult): Promise<void> {
  const now = app.clock.now();
  await insertChunks(tx, { workspaceId: source.workspaceId, sourceId: source.id, createdAt: now, chunks: result.chunks });
  for (const f of result.facts) {
    tx.create(KnowledgeFact, {
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
    });
  }
  for (const q of result.qaPairs) {
    tx.create(KnowledgeQaPair, {
      id: q.id,
      workspaceId: source.workspaceId,
      sourceId: source.id,
      chunkId: q.chunkId,
      question: q.question,
      answer: q.answer,
      createdAt: now,
    });
  }
  const contradictions = await detectContradictions(app, tx, source, result.facts, now);

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
  await publishEvent(tx, {
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
  app: AppServices,
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
      await publishEvent(tx, {
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
export async function commitFailure(app: AppServices, tx: Em, source: KnowledgeSource, reason: string): Promise<void> {
  const now = app.clock.now();
  source.status = 'failed';
  source.error = reason;
  source.updatedAt = now;
  await publishEvent(tx, {
    name: 'source.failed',
    workspaceId: source.workspaceId,
    actorUserId: source.userId,
    payload: { sourceId: source.id, name: source.name, error: reason },
  });
  await tx.flush();
}
