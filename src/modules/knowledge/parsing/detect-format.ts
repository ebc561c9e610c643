import { extname } from 'node:path';
import { DocumentParseError, UnsupportedDocumentError } from './errors.js';
import type { DocumentFormat } from './types.js';

const BY_EXTENSION: Record<string, DocumentFormat> = {
  '.txt': 'text',
  '.text': 'text',
  '.md': 'markdown',
  '.markdown': 'markdown',
  '.html': 'html',
  '.htm': 'html',
  '.pdf': 'pdf',
  '.docx': 'docx',
};

const BY_MIME_TYPE: Record<string, DocumentFormat> = {
  'text/plain': 'text',
  'text/markdown': 'markdown',
  'text/x-markdown': 'markdown',
  'text/html': 'html',
  'application/pdf': 'pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
};

/** Binary formats recognised by their first bytes, to name them in the refusal. */
const KNOWN_BINARY: { label: string; magic: number[] }[] = [
  { label: 'PNG image', magic: [0x89, 0x50, 0x4e, 0x47] },
  { label: 'JPEG image', magic: [0xff, 0xd8, 0xff] },
  { label: 'GIF image', magic: [0x47, 0x49, 0x46, 0x38] },
  { label: 'TIFF image', magic: [0x49, 0x49, 0x2a, 0x00] },
  { label: 'TIFF image', magic: [0x4d, 0x4d, 0x00, 0x2a] },
  { label: 'legacy Office document (.doc, .xls, .ppt)', magic: [0xd0, 0xcf, 0x11, 0xe0] },
  { label: 'gzip archive', magic: [0x1f, 0x8b] },
  { label: '7z archive', magic: [0x37, 0x7a, 0xbc, 0xaf] },
  { label: 'RAR archive', magic: [0x52, 0x61, 0x72, 0x21] },
];

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];

/**
 * Decides the format. Magic bytes win over the name: `%PDF` at the start is a PDF, a ZIP holding
 * `word/document.xml` is a DOCX, whatever the extension says. (`%PDF` later in the first KiB, after
 * junk that PDF readers tolerate, counts only for a `.pdf` name or an unsupported one.) Other ZIPs
 * and known binary formats are refused, named by their extension or kind. Then the extension
 * decides; a file without an extension falls back on its MIME type. A `.pdf` or `.docx` whose bytes
 * do not match is a parse error (corrupt), any other extension is unsupported.
 */
export function detectFormat(input: { bytes: Buffer; filename: string; mimeType?: string }): DocumentFormat {
  const { bytes } = input;
  const extension = extname(input.filename).toLowerCase();
  if (bytes.length === 0) throw new DocumentParseError('The file is empty');

  const pdfHeader = bytes.subarray(0, 1024).indexOf('%PDF');
  if (pdfHeader === 0 || (pdfHeader > 0 && (extension === '.pdf' || !BY_EXTENSION[extension]))) return 'pdf';
  if (startsWith(bytes, ZIP_MAGIC)) {
    if (bytes.includes('word/document.xml')) return 'docx';
    if (extension === '.docx') throw new DocumentParseError('The DOCX file is corrupt or not a Word document');
    throw UnsupportedDocumentError.forType(extension || zipKind(bytes));
  }
  const binary = KNOWN_BINARY.find((b) => startsWith(bytes, b.magic));
  if (binary && !BY_EXTENSION[extension]) throw UnsupportedDocumentError.forType(extension || binary.label);

  const mimeType = input.mimeType?.split(';')[0].trim().toLowerCase();
  const format = extension ? BY_EXTENSION[extension] : mimeType ? BY_MIME_TYPE[mimeType] : undefined;
  if (!format) {
    throw UnsupportedDocumentError.forType(extension || `${mimeType ?? 'unknown'} (no file extension)`);
  }
  if (format === 'pdf') throw new DocumentParseError('The file is not a valid PDF (no %PDF header)');
  if (format === 'docx') throw new DocumentParseError('The DOCX file is corrupt or not a Word document');
  return format;
}

function startsWith(bytes: Buffer, magic: number[]): boolean {
  return magic.every((byte, i) => bytes[i] === byte);
}

function zipKind(bytes: Buffer): string {
  if (bytes.includes('xl/workbook.xml')) return '.xlsx';
  if (bytes.includes('ppt/presentation.xml')) return '.pptx';
  return 'ZIP archive';
}
