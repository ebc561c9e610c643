import { extractText, getDocumentProxy } from 'unpdf';
import { DocumentParseError } from './errors.js';
import { looksLikeHeading, unwrapLines } from './lines.js';
import type { DocumentBlock } from './types.js';

type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>;

const PAGE_NUMBER = /^(?:page\s+)?\d{1,4}(?:\s*(?:\/|of|sur)\s*\d{1,4})?$/i;

/**
 * PDF to blocks through unpdf (pdf.js), page by page, with `page` the 1-based page number.
 * PDF text carries no structure, so the section is the last heading-like line seen, on this page
 * or an earlier one (see looksLikeHeading: short, no final punctuation, numbered, all capitals or
 * Title Case). The body lines between two headings of one page form one block, unwrapped.
 * Lines that are only a page number (`3`, `Page 3 of 10`) are dropped. Title: the PDF's metadata title.
 */
export async function parsePdf(bytes: Buffer): Promise<{ title?: string; blocks: DocumentBlock[] }> {
  let doc: PdfDocument;
  try {
    doc = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0, isEvalSupported: false });
  } catch (error) {
    if (error instanceof Error && error.name === 'PasswordException') {
      throw new DocumentParseError('The PDF is password-protected; upload an unprotected copy');
    }
    throw new DocumentParseError('The PDF is corrupt or unreadable');
  }
  try {
    const { text: pages } = await extractText(doc, { mergePages: false }).catch(() => {
      throw new DocumentParseError('The PDF is corrupt or unreadable');
    });
    const blocks: DocumentBlock[] = [];
    let section = '';
    pages.forEach((pageText, index) => {
      let body: string[] = [];
      const flush = (): void => {
        const text = unwrapLines(body);
        if (text) blocks.push({ text, section, page: index + 1 });
        body = [];
      };
      for (const raw of pageText.split('\n')) {
        const line = raw.replace(/\s+/g, ' ').trim();
        if (!line || PAGE_NUMBER.test(line)) continue;
        if (looksLikeHeading(line)) {
          flush();
          section = line;
        } else body.push(line);
      }
      flush();
    });
    const title = await metadataTitle(doc);
    return title ? { title, blocks } : { blocks };
  } finally {
    await doc.destroy();
  }
}

async function metadataTitle(doc: PdfDocument): Promise<string | undefined> {
  try {
    const { info } = await doc.getMetadata();
    const title: unknown = (info as Record<string, unknown> | null)?.Title;
    return typeof title === 'string' && title.trim() ? title.trim() : undefined;
  } catch {
    return undefined;
  }
}
