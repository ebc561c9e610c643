import { decodeText } from './decode-text.js';
import { detectFormat } from './detect-format.js';
import { DocumentParseError } from './errors.js';
import { parseDocx } from './parse-docx.js';
import { parseHtml } from './parse-html.js';
import { parseMarkdown } from './parse-markdown.js';
import { parsePdf } from './parse-pdf.js';
import { parseText } from './parse-text.js';
import type { DocumentBlock, ParsedDocument } from './types.js';

export type { DocumentBlock, DocumentFormat, ParsedDocument } from './types.js';
export { DocumentParseError, UnsupportedDocumentError } from './errors.js';

/**
 * Reads an uploaded file into plain-text blocks tagged with section and page.
 * Throws UnsupportedDocumentError (a kind of file not ingested) or DocumentParseError (a supported
 * kind that cannot be read); both carry a message meant for the user.
 */
export async function parseDocument(input: { bytes: Buffer; filename: string; mimeType?: string }): Promise<ParsedDocument> {
  const format = detectFormat(input);
  const parsed = await parseAs(format, input.bytes);
  if (parsed.blocks.length === 0) {
    throw new DocumentParseError(
      format === 'pdf'
        ? 'The PDF has no extractable text (scanned pages would need OCR, which is not supported)'
        : 'The document has no extractable text',
    );
  }
  return parsed.title ? { format, title: parsed.title, blocks: parsed.blocks } : { format, blocks: parsed.blocks };
}

async function parseAs(format: ParsedDocument['format'], bytes: Buffer): Promise<{ title?: string; blocks: DocumentBlock[] }> {
  switch (format) {
    case 'pdf':
      return parsePdf(bytes);
    case 'docx':
      return parseDocx(bytes);
    default: {
      const text = decodeText(bytes);
      if (text === null) throw new DocumentParseError('The file does not contain readable text (it looks like binary data)');
      if (format === 'markdown') return parseMarkdown(text);
      if (format === 'html') return parseHtml(text);
      return parseText(text);
    }
  }
}
