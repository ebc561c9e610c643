import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyseDocument } from '../../src/modules/knowledge/analyse.js';
import { claimIngestionJob, processIngestionJob, runPendingIngestion } from '../../src/modules/knowledge/ingestion.worker.js';
import { api } from '../support/api.js';
import { startTestApp, type TestApp, type TestTenant } from '../support/app.js';
import { upload } from '../support/knowledge.js';

/**
 * Ingestion parses on the app's parsing thread (document-analyser.ts): the event loop stays free while a
 * large document is analysed, and a crash of that thread fails only the job in flight.
 */
let t: TestApp;
let a: TestTenant;

beforeAll(async () => {
  t = await startTestApp();
  a = await t.tenant();
});
afterAll(() => t.close());

/**
 * A plain-text document of about `bytes` bytes: sections of prose, a fact and an FAQ line every 20th
 * section (a document with thousands of facts and Q&A pairs spends longer in the write transaction,
 * whose ORM flush runs on the main thread: see docs/knowledge.md).
 */
function generatedText(bytes: number, seed: string): Buffer {
  const words = ['ledger', 'invoice', 'tenant', 'harbour', 'meadow', 'quarter', 'signal', 'copper', 'lantern', 'orchard', 'compass', 'velvet'];
  const parts: string[] = [];
  let size = 0;
  for (let s = 0; size < bytes; s++) {
    const w = (k: number) => words[(s * 7 + k * 5) % words.length];
    const prose = Array.from({ length: 9 }, (_, k) => `The ${w(k)} near the ${w(k + 1)} keeps ${w(k + 2)} records for section ${s} of ${seed}.`).join(' ');
    const extra = s % 20 === 0 ? `The ${w(3)} fee ${s % 500} is ${s % 97} EUR.\n\nHow does the ${w(4)} ${s} work? ${prose.slice(0, 200)}\n\n` : '';
    const block = `Section ${s}\n\n${prose}\n\n${extra}`;
    parts.push(block);
    size += block.length;
  }
  return Buffer.from(parts.join(''));
}

/** Runs `fn` while a 20 ms interval timer measures the longest gap between its ticks (the event loop's stalls). */
async function longestGapDuring<T>(fn: () => Promise<T>): Promise<{ value: T; maxGapMs: number; elapsedMs: number }> {
  const start = performance.now();
  let last = start;
  let maxGapMs = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    maxGapMs = Math.max(maxGapMs, now - last);
    last = now;
  }, 20);
  try {
    const value = await fn();
    const end = performance.now();
    return { value, maxGapMs: Math.max(maxGapMs, end - last), elapsedMs: end - start };
  } finally {
    clearInterval(timer);
  }
}

/** The error a promise rejects with (fails the test when it resolves). */
async function refusal(p: Promise<unknown>): Promise<Error> {
  return p.then(
    () => {
      throw new Error('expected a refusal');
    },
    (err: unknown) => err as Error,
  );
}

async function sourceOf(id: string) {
  return (await api(t.baseUrl, a.key).get(`/v1/knowledge-sources/${id}`)).body.source as { status: string; error: string | null; chunkCount: number };
}

async function jobOf(sourceId: string) {
  const rows = await t.app.services.orm.em.fork().execute(`select status, attempts, last_error from knowledge_ingestion_job where source_id = ?`, [sourceId]);
  return rows[0] as { status: string; attempts: number; last_error: string | null };
}

describe('parsing thread', () => {
  // Retried twice: the gaps are timings, and a machine busy with other work (a second test run, a benchmark) can stretch the
  // job's main-thread work past the in-thread analysis's once (seen: 1 924 against 795 ms at load 8). Parsing back on the
  // main thread fails every attempt.
  it('keeps the event loop responsive while a 16 MB text is ingested', { retry: 2, timeout: 120_000 }, async () => {
    const bytes = generatedText(16 * 1024 * 1024, 'large');
    // Precondition: the same analysis in the main thread blocks it for a long while (about a second here).
    const inThread = await longestGapDuring(() => analyseDocument({ bytes: Buffer.from(bytes), filename: 'large.txt', mimeType: 'text/plain' }));
    expect(inThread.maxGapMs).toBeGreaterThan(400);

    const res = await upload(t, a.key, { bytes, filename: 'large.txt', type: 'text/plain' });
    expect(res.status).toBe(202);
    const job = await longestGapDuring(() => runPendingIngestion(t.app.services));
    expect(job.value).toBe(1);
    const source = await sourceOf(res.body.source.id);
    expect(source).toMatchObject({ status: 'ready', error: null, chunkCount: inThread.value.chunks.length });
    // The whole job (read, parse on the thread, write the passages in one transaction) never stalls the loop
    // for long; in the main thread the parsing alone did (figures printed for docs/performance.md).
    console.log(
      `in-thread analysis ${inThread.elapsedMs.toFixed(0)} ms (longest gap ${inThread.maxGapMs.toFixed(0)} ms); ` +
        `job on the parsing thread ${job.elapsedMs.toFixed(0)} ms (longest gap ${job.maxGapMs.toFixed(0)} ms)`,
    );
    // Relative, so that a loaded machine (which slows both runs) does not make the test flaky. The job has main-thread
    // work of its own besides the parsing (reading the 16 MB upload, the passages' write, the major collections of
    // the text): on the slower 2-core machine under a CI run (load 5) its longest gap reached 0.56-0.80 of the
    // in-thread analysis's (826 of 1 466 ms, 1 296 of 1 616 ms), so half was too tight; parsing back on the main
    // thread adds the whole analysis to that work and fails this.
    expect(job.maxGapMs, `job gap ${job.maxGapMs.toFixed(0)} ms, in-thread ${inThread.maxGapMs.toFixed(0)} ms`).toBeLessThan(inThread.maxGapMs);
  }); // about 20 s on the embedded database (analysis, upload, job), more on a loaded machine

  it('transfers the bytes, and carries refusals back with their reason and class', async () => {
    const analyser = t.app.services.ingestion.analyser;
    const bytes = Buffer.from(generatedText(64 * 1024, 'small'));
    const result = await analyser.analyse({ bytes, filename: 'small.md', mimeType: 'text/markdown' });
    expect(result.format).toBe('markdown');
    expect(result.chunks.length).toBeGreaterThan(0);
    expect(bytes.byteLength).toBe(0); // transferred, not copied: the caller's buffer is detached

    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    const refused = await refusal(analyser.analyse({ bytes: png, filename: 'photo.png', mimeType: 'image/png' }));
    expect(refused).toMatchObject({ name: 'IngestionFailure', message: 'Unsupported file type: .png (supported: .txt, .md, .html, .pdf, .docx)' });
    expect(refused.cause).toMatchObject({ name: 'UnsupportedDocumentError', status: 415 });

    const unreadable = await refusal(analyser.analyse({ bytes: Buffer.from('%PDF-1.7 broken'), filename: 'x.pdf', mimeType: 'application/pdf' }));
    expect(unreadable.name).toBe('IngestionFailure');
    expect(unreadable.cause).toMatchObject({ name: 'DocumentParseError', status: 422 });
  });

  it('a crash of the parsing thread fails only the job in flight, which is retried; the next job succeeds', async () => {
    const analyser = t.app.services.ingestion.analyser;
    const first = await upload(t, a.key, { bytes: generatedText(4 * 1024 * 1024, 'crashed'), filename: 'crashed.txt', type: 'text/plain' });
    const second = await upload(t, a.key, { bytes: generatedText(32 * 1024, 'next'), filename: 'next.txt', type: 'text/plain' });
    expect([first.status, second.status]).toEqual([202, 202]);
    const startsBefore = analyser.starts;

    const job = await claimIngestionJob(t.app.services);
    expect(job?.sourceId).toBe(first.body.source.id);
    const running = processIngestionJob(t.app.services, job!);
    await expect.poll(() => analyser.inFlight, { timeout: 10_000, interval: 2 }).not.toBe(0);
    expect(analyser.inFlight).toBe(1);
    // What a crash looks like from the app: the thread ends while a document is in flight.
    await analyser.thread!.terminate();
    await running;

    // That job went back to the queue under the usual retry rules (first of three attempts); its source waits.
    expect(await jobOf(first.body.source.id)).toMatchObject({ status: 'queued', attempts: 1 });
    expect((await jobOf(first.body.source.id)).last_error).toMatch(/parsing thread exited unexpectedly/);
    expect((await sourceOf(first.body.source.id)).status).toBe('ingesting');
    expect(analyser.thread).toBeNull();

    // A new thread starts for the next document; both jobs then succeed.
    expect(await runPendingIngestion(t.app.services)).toBe(2);
    expect(analyser.starts).toBe(startsBefore + 1);
    expect(await sourceOf(second.body.source.id)).toMatchObject({ status: 'ready', error: null });
    expect(await sourceOf(first.body.source.id)).toMatchObject({ status: 'ready', error: null });
    expect(await jobOf(first.body.source.id)).toMatchObject({ status: 'done', attempts: 2 });
  });

  it('is stopped with the app: later documents are refused instead of starting a thread', async () => {
    const other = await startTestApp();
    const analyser = other.app.services.ingestion.analyser;
    await analyser.analyse({ bytes: Buffer.from('Warm-up text.'), filename: 'w.txt', mimeType: 'text/plain' });
    const thread = analyser.thread!;
    const exited = new Promise<number>((r) => thread.once('exit', r));
    await other.close();
    await exited;
    expect(analyser.thread).toBeNull();
    await expect(analyser.analyse({ bytes: Buffer.from('x'), filename: 'x.txt', mimeType: 'text/plain' })).rejects.toThrow(/stopped/);
  });
});
