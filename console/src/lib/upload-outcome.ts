import { count } from './format.js';

/** A document's state as the Documents list last read it (GraphQL `knowledgeSources`). */
export interface SourceState {
  status: string;
  chunkCount: number;
  error?: string | null;
}

/**
 * The line under an uploaded file: it follows the document's state as the list reads it (the list is
 * read again while a document ingests), so it never says "running" once the badge says ready. Before the
 * list has the document, it is still ingesting (the upload's own answer).
 */
export function uploadOutcome(name: string, state: SourceState | undefined): { text: string; failed: boolean } {
  if (state?.status === 'ready') return { text: `${name} uploaded and ready: ${count(state.chunkCount, 'passage')} to cite.`, failed: false };
  if (state?.status === 'failed') return { text: `${name} uploaded, but could not be ingested${state.error ? `: ${state.error}` : '.'}`, failed: true };
  return { text: `${name} uploaded: ingestion is running.`, failed: false };
}
