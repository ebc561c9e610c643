import { basename } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import busboy from 'busboy';
import { z } from 'zod';
import { errors } from '../src/errors/index.js';
import type { UploadedFile } from '../src/modules/knowledge/index.js';

const MAX_FIELD_BYTES = 1024;
const MAX_NAME = 200;
/** Parts a form may hold; busboy would silently drop the ones past these, so reaching one is a 400. */
const FORM_LIMITS = { files: 1, fields: 10, parts: 20 } as const;

/** After refusing an oversized upload, the rest of the body is read and dropped (never kept) for at most this long. */
const DRAIN_GRACE_MS = 5_000;

/** The form `readMultipartUpload` accepts, for /openapi.json (the reader below enforces it). */
export const UploadFormSchema = z.object({
  file: z.file().describe('The document (text, Markdown, HTML, PDF or DOCX), at most 25 MB'),
  collectionId: z.string().optional(),
  dossierId: z.string().optional().describe('A dossier of the workspace to upload into (400 Dossier not found otherwise)'),
  name: z.string().max(MAX_NAME).optional(),
});

/**
 * Streams a `multipart/form-data` body through busboy. The file part is collected chunk by chunk and
 * the size cap is enforced as bytes arrive: the first byte past `maxBytes` stops collecting and the
 * request is refused with 413 without buffering the rest. Fields: `file` (required, the document),
 * `collectionId` and `name` (optional). Other parts are ignored, up to the counts of FORM_LIMITS: past
 * them the request is refused with 400 rather than losing parts silently.
 */
export function readMultipartUpload(req: IncomingMessage, res: ServerResponse, maxBytes: number): Promise<UploadedFile> {
  return new Promise((resolve, reject) => {
    const type = req.headers['content-type'] ?? '';
    if (!/^multipart\/form-data/i.test(type)) {
      reject(errors.validation('file', 'file is required (send multipart/form-data with a file field named "file")'));
      drain(req, res);
      return;
    }
    let parser: busboy.Busboy;
    try {
      // busboy reports `limit` when the file reaches fileSize; one byte of headroom lets exactly maxBytes through.
      parser = busboy({ headers: req.headers, defParamCharset: 'utf8', limits: { fileSize: maxBytes + 1, fieldSize: MAX_FIELD_BYTES, ...FORM_LIMITS } });
    } catch {
      reject(errors.invalidBody('Malformed multipart body', 'file'));
      drain(req, res);
      return;
    }
    let settled = false;
    const fail = (err: unknown): void => {
      if (settled) return;
      settled = true;
      req.unpipe(parser);
      parser.removeAllListeners();
      parser.on('error', () => undefined);
      drain(req, res);
      reject(err);
    };
    const fields: Record<string, string> = {};
    let file: { filename: string; mimeType: string; chunks: Buffer[]; size: number } | null = null;
    let fileDone: Promise<void> = Promise.resolve();

    parser.on('file', (field, stream, info) => {
      if (field !== 'file' || file) {
        stream.resume();
        return;
      }
      const current = { filename: cleanName(info.filename), mimeType: info.mimeType || 'application/octet-stream', chunks: [] as Buffer[], size: 0 };
      file = current;
      fileDone = new Promise((done) => {
        stream.on('data', (chunk: Buffer) => {
          current.size += chunk.length;
          if (current.size > maxBytes) return;
          current.chunks.push(chunk);
        });
        stream.on('limit', () => fail(errors.payloadTooLarge(`File too large: the limit is ${maxBytes} bytes (25 MB)`)));
        stream.on('end', () => done());
        stream.on('error', (err) => fail(errors.invalidBody(`Malformed multipart body: ${(err as Error).message}`, 'file')));
      });
    });
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) fail(errors.validation(name, `${name} is too long`));
      else fields[name] = value;
    });
    parser.on('filesLimit', () => fail(errors.invalidBody(`Too many files: send at most ${FORM_LIMITS.files} file part`, 'file')));
    parser.on('fieldsLimit', () => fail(errors.invalidBody(`Too many form fields: send at most ${FORM_LIMITS.fields}`)));
    parser.on('partsLimit', () => fail(errors.invalidBody(`Too many form parts: send at most ${FORM_LIMITS.parts}`)));
    parser.on('error', (err) => fail(errors.invalidBody(`Malformed multipart body: ${(err as Error).message}`, 'file')));
    parser.on('close', () => {
      void fileDone.then(() => {
        if (settled) return;
        const got = file as { filename: string; mimeType: string; chunks: Buffer[]; size: number } | null;
        if (!got) return fail(errors.validation('file', 'file is required'));
        settled = true;
        resolve({
          filename: got.filename,
          mimeType: got.mimeType,
          bytes: Buffer.concat(got.chunks),
          ...(fields.collectionId !== undefined ? { collectionId: fields.collectionId } : {}),
          ...(fields.dossierId !== undefined ? { dossierId: fields.dossierId } : {}),
          ...(fields.name !== undefined ? { name: fields.name.slice(0, MAX_NAME) } : {}),
        });
      });
    });
    req.on('aborted', () => fail(errors.invalidBody('Upload aborted', 'file')));
    req.pipe(parser);
  });
}

/** The client's file name without any directory part, trimmed to 200 characters. */
function cleanName(name: string | undefined): string {
  const base = basename((name ?? '').replace(/\\/g, '/')).replace(/[\u0000-\u001f]/g, '').trim();
  return (base || 'upload').slice(0, MAX_NAME);
}

/**
 * Lets the client finish sending so it can read the refusal, discarding the bytes, and cuts the
 * connection after a grace period if the client keeps sending. The server never closes first while the
 * client is still writing: a socket closed with unread bytes arriving answers them with a reset, and the
 * client then fails with EPIPE/ECONNRESET instead of reading the 413 (a client such as fetch stops sending
 * and closes by itself once it has the whole answer).
 */
function drain(req: IncomingMessage, res: ServerResponse): void {
  if (req.readableEnded) return;
  req.resume();
  const timer = setTimeout(() => req.socket.destroy(), DRAIN_GRACE_MS);
  timer.unref();
  req.once('end', () => clearTimeout(timer));
  req.once('close', () => clearTimeout(timer));
}
