import { looksLikeHeading, unwrapLines } from './lines.js';
import type { DocumentBlock } from './types.js';

/**
 * Plain text to blocks: paragraphs are separated by blank lines, hard-wrapped lines are rejoined
 * (see unwrapLines). A paragraph made of one heading-looking line (see looksLikeHeading) that is
 * followed by more text is not a block: it becomes the section of the paragraphs after it, and the
 * first such line at the very top is also the title. Before any heading the section is ''.
 * Every block is on page 1.
 */
export function parseText(text: string): { title?: string; blocks: DocumentBlock[] } {
  const paragraphs = text
    .split(/\n[ \t]*\n/)
    .map((p) => p.split('\n').filter((line) => line.trim()))
    .filter((lines) => lines.length > 0);
  const blocks: DocumentBlock[] = [];
  let section = '';
  let title: string | undefined;

  paragraphs.forEach((lines, i) => {
    const isHeading = lines.length === 1 && i < paragraphs.length - 1 && looksLikeHeading(lines[0]);
    if (isHeading) {
      section = lines[0].replace(/\s+/g, ' ').trim();
      if (i === 0) title = section;
      return;
    }
    blocks.push({ text: unwrapLines(lines), section, page: 1 });
  });
  return title ? { title, blocks } : { blocks };
}
