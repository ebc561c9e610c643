import { setImmediate as nextTurn } from 'node:timers/promises';
import { isDomainError } from '../../errors/catalogue.js';
import { newId } from '../../lib/ids.js';
import type { ChunkRow } from './knowledge.repository.js';
import { chunkDocument } from './parsing/chunk.js';
import { extractFacts, type ExtractedFact } from './parsing/facts.js';
import { parseDocument } from './parsing/parse-document.js';
import { extractQaPairs, type QaPair } from './parsing/qa.js';
import type { DocumentFormat } from './parsing/types.js';

/**
 * The pure, CPU-bound part of ingestion: parse, chunk, extract facts and Q&A pairs. It imports only the
 * parsing layer (no database, no ORM), because it is also the module graph of the parsing thread
 * (`parse.worker.ts`, driven by `document-analyser.ts`).
 */

/** Facts kept per document; a document stating more keeps its first 5 000. */
export const MAX_FACTS_PER_SOURCE = 5_000;

/** What parsing produced, before anything is written. Plain data: it crosses threads by structured clone. */
export interface IngestionResult {
  format: DocumentFormat;
  title: string | null;
  chunks: ChunkRow[];
  facts: (ExtractedFact & { id: string; chunkId: string | null })[];
  qaPairs: (QaPair & { id: string; chunkId: string | null })[];
}

/**
 * A failure meant for the user: it becomes the source's `error` and `source.failed.error`. `cause` is the
 * parser's UnsupportedDocumentError (415) or DocumentParseError (422) when it came from one.
 */
export class IngestionFailure extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'IngestionFailure';
  }
}

/**
 * Parses, chunks and extracts in the calling thread (the event loop gets a turn between the phases, but a
 * phase runs in one piece: one to three seconds each on a 25 MB text). Ingestion runs it on the parsing
 * thread (`DocumentAnalyser`); called directly it is the in-thread path (benchmarks, the parsing thread
 * itself). Unsupported or unreadable documents throw IngestionFailure with the parser's user-facing reason.
 */
export async function analyseDocument(input: { bytes: Buffer; filename: string; mimeType: string }): Promise<IngestionResult> {
  let parsed;
  try {
    parsed = await parseDocument({ bytes: input.bytes, filename: input.filename, mimeType: input.mimeType });
  } catch (err) {
    // The parsing layer throws catalogue errors (415 unsupported, 422 unreadable) whose message is for the user.
    if (isDomainError(err)) throw new IngestionFailure(err.message, { cause: err });
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
