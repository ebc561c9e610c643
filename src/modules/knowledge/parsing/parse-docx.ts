import mammoth from 'mammoth';
import { DocumentParseError } from './errors.js';
import { parseHtml } from './parse-html.js';
import type { DocumentBlock } from './types.js';

/** Images are dropped rather than inlined as base64 data URIs: only text is ingested. */
const dropImages = mammoth.images.imgElement(async () => ({ src: '' }));

/**
 * DOCX to blocks: mammoth converts the document to HTML (Word heading styles become h1–h6), then
 * the HTML path applies. DOCX has no fixed pages (pagination depends on the renderer), so every
 * block is on page 1.
 */
export async function parseDocx(bytes: Buffer): Promise<{ title?: string; blocks: DocumentBlock[] }> {
  let html: string;
  try {
    ({ value: html } = await mammoth.convertToHtml({ buffer: bytes }, { convertImage: dropImages, externalFileAccess: false }));
  } catch {
    throw new DocumentParseError('The DOCX file is corrupt or not a Word document');
  }
  return parseHtml(html);
}
