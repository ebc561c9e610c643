import { Parser } from 'htmlparser2';
import { HeadingPath } from './heading-path.js';
import type { DocumentBlock } from './types.js';

/** Elements whose content is never document text. */
const SKIPPED = new Set([
  'script', 'style', 'nav', 'noscript', 'template', 'svg', 'iframe', 'object', 'canvas', 'button', 'select',
]);
/**
 * What `head` may hold. As in browsers, `head` ends at `</head>` or at the first element it cannot
 * hold, so a page that never closes it still has a body; `title` is read on its own.
 */
const HEAD_CONTENT = new Set(['title', 'meta', 'link', 'style', 'script', 'base', 'noscript', 'template']);
/** Elements that end the current block when they open or close. */
const BLOCK = new Set([
  'p', 'div', 'li', 'ul', 'ol', 'dl', 'dt', 'dd', 'pre', 'blockquote', 'section', 'article', 'main', 'header',
  'footer', 'aside', 'figure', 'figcaption', 'table', 'caption', 'form', 'fieldset', 'address', 'details',
  'summary', 'hr', 'body', 'html',
]);
const HEADING = /^h([1-6])$/;

/**
 * HTML to blocks. Headings h1–h6 set the section as a heading path (see HeadingPath); p, li, pre,
 * blockquote and the other block elements each produce a block; a table is one block with one line
 * per row and cells separated by ` | ` (paragraphs inside a cell, as DOCX tables have, stay in the
 * cell). script, style, nav, head and similar non-content elements are skipped.
 * Title: `<title>`, else the first h1. Every block is on page 1.
 */
export function parseHtml(html: string): { title?: string; blocks: DocumentBlock[] } {
  const blocks: DocumentBlock[] = [];
  const path = new HeadingPath();
  let skipDepth = 0;
  let preDepth = 0;
  let cellDepth = 0;
  let blockIsPre = false;
  let buffer = '';
  let heading: { level: number; text: string } | null = null;
  let titleTag: string | null = null;
  let inTitle = false;
  let inHead = false;
  let firstH1: string | undefined;

  const flush = (): void => {
    const lines = buffer
      .split('\n')
      .map((line) => (blockIsPre ? line.trimEnd() : line.replace(/\s+/g, ' ').trim().replace(/^\|\s*|\s*\|$/g, '')));
    const text = (blockIsPre ? trimBlankLines(lines) : lines.filter((l) => l.trim())).join('\n');
    if (text.trim()) blocks.push({ text, section: path.toString(), page: 1 });
    buffer = '';
    blockIsPre = preDepth > 0;
  };

  const parser = new Parser(
    {
      onopentag(name) {
        if (name === 'title') inTitle = true;
        if (name === 'head') inHead = true;
        else if (inHead && !HEAD_CONTENT.has(name)) inHead = false;
        if (SKIPPED.has(name)) skipDepth++;
        if (skipDepth > 0 || inHead) return;
        const level = HEADING.exec(name);
        if (level) {
          flush();
          heading = { level: Number(level[1]), text: '' };
        } else if (BLOCK.has(name) && cellDepth > 0) {
          buffer += ' ';
        } else if (BLOCK.has(name)) {
          flush();
          if (name === 'pre') {
            preDepth++;
            blockIsPre = true;
          }
        } else if (name === 'br') {
          if (heading) heading.text += ' ';
          else buffer += '\n';
        } else if (name === 'td' || name === 'th') {
          const line = buffer.slice(buffer.lastIndexOf('\n') + 1);
          if (line.trim()) buffer += ' | ';
          cellDepth++;
        }
      },
      ontext(text) {
        if (inTitle) titleTag = (titleTag ?? '') + text;
        if (skipDepth > 0 || inHead) return;
        if (heading) heading.text += text;
        else buffer += preDepth > 0 ? text : text.replace(/\s+/g, ' ');
      },
      onclosetag(name) {
        if (name === 'title') inTitle = false;
        if (name === 'head') inHead = false;
        if (SKIPPED.has(name)) {
          skipDepth = Math.max(0, skipDepth - 1);
          return;
        }
        if (skipDepth > 0 || inHead) return;
        const level = HEADING.exec(name);
        if (level && heading) {
          path.enter(heading.level, heading.text);
          if (heading.level === 1 && firstH1 === undefined) firstH1 = clean(heading.text) || undefined;
          heading = null;
        } else if (name === 'td' || name === 'th') {
          cellDepth = Math.max(0, cellDepth - 1);
        } else if (BLOCK.has(name) && cellDepth > 0) {
          buffer += ' ';
        } else if (BLOCK.has(name)) {
          flush();
          if (name === 'pre') preDepth = Math.max(0, preDepth - 1);
          blockIsPre = preDepth > 0;
        } else if (name === 'tr') {
          buffer += '\n';
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.write(html);
  parser.end();
  flush();

  const title = clean(titleTag ?? '') || firstH1;
  return title ? { title, blocks } : { blocks };
}

/** Decodes HTML character references (`&amp;`, `&#233;`) and nothing else: `<` is escaped first so no tag is read. */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  let out = '';
  const parser = new Parser({ ontext: (t) => (out += t) }, { decodeEntities: true });
  parser.write(text.replace(/</g, '&lt;'));
  parser.end();
  return out;
}

function clean(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function trimBlankLines(lines: string[]): string[] {
  let start = 0;
  let end = lines.length;
  while (start < end && !lines[start].trim()) start++;
  while (end > start && !lines[end - 1].trim()) end--;
  return lines.slice(start, end);
}
