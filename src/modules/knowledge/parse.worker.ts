import { parentPort } from 'node:worker_threads';
import { analyseDocument, IngestionFailure, type IngestionResult } from './analyse.js';
import { DocumentParseError, UnsupportedDocumentError } from './parsing/errors.js';

/**
 * Entry point of the parsing thread (started by `DocumentAnalyser`, document-analyser.ts). It loads only
 * the parsing layer. One request at a time is what the app sends, but requests are matched by id.
 */
export interface AnalyseRequest {
  id: number;
  /** The document, transferred (not copied) from the main thread. */
  bytes: ArrayBuffer;
  filename: string;
  mimeType: string;
}

/** Why a document was refused, as the class of the parser's error (kept across the thread boundary). */
export type FailureCause = 'UnsupportedDocumentError' | 'DocumentParseError' | null;

export type AnalyseResponse =
  | { id: number; ok: true; result: IngestionResult }
  /** A user-facing refusal: becomes an IngestionFailure again on the main thread. */
  | { id: number; ok: false; failure: { message: string; cause: FailureCause } }
  /** Anything else (a bug): an unexpected error on the main thread, so the job follows the retry rules. */
  | { id: number; ok: false; error: { name: string; message: string; stack?: string } };

export function causeOf(err: IngestionFailure): FailureCause {
  if (err.cause instanceof UnsupportedDocumentError) return 'UnsupportedDocumentError';
  if (err.cause instanceof DocumentParseError) return 'DocumentParseError';
  return null;
}

async function handle(req: AnalyseRequest): Promise<AnalyseResponse> {
  try {
    const result = await analyseDocument({ bytes: Buffer.from(req.bytes), filename: req.filename, mimeType: req.mimeType });
    return { id: req.id, ok: true, result };
  } catch (err) {
    if (err instanceof IngestionFailure) return { id: req.id, ok: false, failure: { message: err.message, cause: causeOf(err) } };
    const e = err instanceof Error ? err : new Error(String(err));
    return { id: req.id, ok: false, error: { name: e.name, message: e.message, stack: e.stack } };
  }
}

if (parentPort) {
  const port = parentPort;
  port.on('message', (req: AnalyseRequest) => {
    void handle(req).then((res) => {
      try {
        port.postMessage(res);
      } catch (err) {
        port.postMessage({ id: req.id, ok: false, error: { name: 'DataCloneError', message: err instanceof Error ? err.message : String(err) } } satisfies AnalyseResponse);
      }
    });
  });
}
