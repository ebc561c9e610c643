import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Logger } from '../../lib/logger.js';
import { IngestionFailure, type IngestionResult } from './analyse.js';
import type { AnalyseRequest, AnalyseResponse, FailureCause } from './parse.worker.js';
import { DocumentParseError, UnsupportedDocumentError } from './parsing/errors.js';

/** `--import` value that lets a worker thread load TypeScript: tsx's loader, resolved from this file (any cwd). */
const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

interface Pending {
  resolve(result: IngestionResult): void;
  reject(err: Error): void;
}

/**
 * The parsing thread of one app (created by the composition root, see knowledge.runtime.ts): runs `analyseDocument` (parse, chunk, facts, Q&A) on a long-lived
 * `worker_threads` Worker so that a large document never blocks the event loop.
 *
 * - The thread starts on first use (loading its module graph takes about a second) and is kept.
 * - The document's bytes are transferred, not copied: see `analyse`.
 * - A refusal (unsupported or unreadable document) comes back as IngestionFailure with the parser's
 *   message, its `cause` an UnsupportedDocumentError or DocumentParseError as in the main thread.
 *   A bug in the thread comes back as a plain Error (the ingestion job then retries).
 * - When the thread dies (crash, out of memory), the requests in flight fail with a plain Error and the
 *   next request starts a new thread.
 * - `stop()` terminates it (the app's close); requests in flight fail, later ones are refused.
 * - The thread is unref'ed while idle, so it never keeps a process alive by itself.
 */
export class DocumentAnalyser {
  readonly #log: Logger;
  #worker: Worker | null = null;
  #pending = new Map<number, Pending>();
  #nextId = 1;
  #stopped = false;
  #lastError: Error | null = null;
  #starts = 0;

  constructor(log: Logger) {
    this.#log = log;
  }

  /** How many threads were started so far (1 + restarts after crashes); for tests and diagnostics. */
  get starts(): number {
    return this.#starts;
  }

  /** Requests sent to the thread and not answered yet. */
  get inFlight(): number {
    return this.#pending.size;
  }

  /** The running thread, if any; for tests and diagnostics (terminating it is what a crash looks like). */
  get thread(): Worker | null {
    return this.#worker;
  }

  /**
   * Runs `analyseDocument` on the parsing thread. `bytes` is handed over: when it spans its whole
   * ArrayBuffer (as the document read from the database does) that buffer is transferred and `bytes` is
   * left empty (detached); otherwise (a view into a larger or pooled buffer) it is copied once first.
   */
  analyse(input: { bytes: Buffer; filename: string; mimeType: string }): Promise<IngestionResult> {
    if (this.#stopped) return Promise.reject(new Error('The document parsing thread is stopped (the app is closing)'));
    const worker = this.#ensureWorker();
    const id = this.#nextId++;
    const bytes = ownedArrayBuffer(input.bytes);
    const request: AnalyseRequest = { id, bytes, filename: input.filename, mimeType: input.mimeType };
    return new Promise<IngestionResult>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      worker.ref();
      try {
        worker.postMessage(request, [bytes]);
      } catch (err) {
        this.#settle(id);
        reject(err instanceof Error ? err : new Error(String(err)));
      }
    });
  }

  /** Terminates the thread; requests in flight fail and later ones are refused. */
  async stop(): Promise<void> {
    this.#stopped = true;
    const worker = this.#worker;
    if (worker) await worker.terminate();
  }

  #ensureWorker(): Worker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(new URL('./parse.worker.ts', import.meta.url), {
      execArgv: ['--import', TSX_LOADER],
      name: 'knowledge-parse',
    });
    this.#starts++;
    this.#lastError = null;
    worker.on('message', (res: AnalyseResponse) => this.#onMessage(res));
    worker.on('error', (err) => {
      this.#lastError = err;
      this.#log.error({ err }, 'document parsing thread crashed');
    });
    worker.on('exit', (code) => {
      if (this.#worker === worker) this.#worker = null;
      const why = this.#stopped
        ? 'The document parsing thread was stopped (the app is closing)'
        : `The document parsing thread exited unexpectedly (code ${code}${this.#lastError ? `: ${this.#lastError.message}` : ''})`;
      if (!this.#stopped) this.#log.warn({ code, inFlight: this.#pending.size }, 'document parsing thread exited; the next document starts a new one');
      const pending = [...this.#pending.values()];
      this.#pending.clear();
      for (const p of pending) p.reject(new Error(why));
    });
    worker.unref();
    this.#worker = worker;
    return worker;
  }

  #onMessage(res: AnalyseResponse): void {
    const pending = this.#settle(res.id);
    if (!pending) return;
    if (res.ok) pending.resolve(res.result);
    else if ('failure' in res) pending.reject(new IngestionFailure(res.failure.message, { cause: parserError(res.failure.cause, res.failure.message) }));
    else {
      const err = new Error(res.error.message);
      err.name = res.error.name;
      if (res.error.stack) err.stack = res.error.stack;
      pending.reject(err);
    }
  }

  #settle(id: number): Pending | undefined {
    const pending = this.#pending.get(id);
    this.#pending.delete(id);
    if (this.#pending.size === 0) this.#worker?.unref();
    return pending;
  }
}

function parserError(cause: FailureCause, message: string): Error | undefined {
  if (cause === 'UnsupportedDocumentError') return new UnsupportedDocumentError(message);
  if (cause === 'DocumentParseError') return new DocumentParseError(message);
  return undefined;
}

/** An ArrayBuffer holding exactly `bytes` that may be transferred: its own when it spans it, else a copy. */
function ownedArrayBuffer(bytes: Buffer): ArrayBuffer {
  const buffer = bytes.buffer;
  if (buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === buffer.byteLength) return buffer;
  const copy = new ArrayBuffer(bytes.byteLength);
  new Uint8Array(copy).set(bytes);
  return copy;
}
