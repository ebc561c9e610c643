export type DocumentFormat = 'text' | 'markdown' | 'html' | 'pdf' | 'docx';

/** One paragraph-sized run of plain text (no markup) with where it came from. */
export interface DocumentBlock {
  text: string;
  /** Heading path or nearest heading, '' before the first heading; see each parser for its rule. */
  section: string;
  /** 1-based; always 1 for formats without fixed pages (text, markdown, html, docx). */
  page: number;
}

export interface ParsedDocument {
  format: DocumentFormat;
  title?: string;
  blocks: DocumentBlock[];
}
