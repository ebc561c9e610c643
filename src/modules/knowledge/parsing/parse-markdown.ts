import { marked, type Token, type Tokens } from 'marked';
import { HeadingPath } from './heading-path.js';
import { decodeEntities, parseHtml } from './parse-html.js';
import type { DocumentBlock } from './types.js';

/**
 * Markdown to blocks through `marked.lexer`. Headings set the section as a heading path
 * (`Guide > Setup > Linux`, see HeadingPath). Paragraphs, list items, code blocks and raw HTML
 * blocks each become a block of plain text (emphasis, links and code spans reduced to their text);
 * a table is one block, one line per row, cells separated by ` | `. Title: the front matter's `title`,
 * else the first level-1 heading.
 * Every block is on page 1.
 */
export function parseMarkdown(source: string): { title?: string; blocks: DocumentBlock[] } {
  const blocks: DocumentBlock[] = [];
  const path = new HeadingPath();
  let title: string | undefined;

  const push = (text: string): void => {
    const clean = text.trim();
    if (clean) blocks.push({ text: clean, section: path.toString(), page: 1 });
  };

  const walk = (tokens: Token[]): void => {
    for (const token of tokens) {
      switch (token.type) {
        case 'heading': {
          const heading = token as Tokens.Heading;
          const text = inlineText(heading.tokens);
          path.enter(heading.depth, text);
          if (heading.depth === 1 && title === undefined && text) title = text;
          break;
        }
        case 'paragraph':
          push(inlineText((token as Tokens.Paragraph).tokens));
          break;
        case 'text': {
          const text = token as Tokens.Text;
          push(text.tokens ? inlineText(text.tokens) : decodeEntities(text.text));
          break;
        }
        case 'list':
          for (const item of (token as Tokens.List).items) {
            push(inlineText(item.tokens.filter((t) => t.type === 'text' || t.type === 'paragraph')));
            walk(item.tokens.filter((t) => t.type !== 'text' && t.type !== 'paragraph'));
          }
          break;
        case 'table': {
          const table = token as Tokens.Table;
          const row = (cells: Tokens.TableCell[]): string => cells.map((c) => inlineText(c.tokens)).join(' | ');
          push([row(table.header), ...table.rows.map(row)].join('\n'));
          break;
        }
        case 'code':
          push((token as Tokens.Code).text);
          break;
        case 'blockquote':
          walk((token as Tokens.Blockquote).tokens);
          break;
        case 'html':
          for (const block of parseHtml((token as Tokens.HTML).text).blocks) push(block.text);
          break;
        default:
          if ('tokens' in token && Array.isArray(token.tokens)) walk(token.tokens);
      }
    }
  };

  const { body, frontMatterTitle } = splitFrontMatter(source);
  walk(marked.lexer(body));
  title = frontMatterTitle ?? title;
  return title ? { title, blocks } : { blocks };
}

/** YAML front matter (`---` lines around `key: value` lines at the very top) is metadata, not text; its `title` wins. */
function splitFrontMatter(source: string): { body: string; frontMatterTitle?: string } {
  const match = /^---[ \t]*\n([\s\S]*?)\n(?:---|\.\.\.)[ \t]*(?:\n|$)/.exec(source);
  if (!match) return { body: source };
  const title = /^title:[ \t]*(.+)$/m.exec(match[1])?.[1].trim().replace(/^(["'])(.*)\1$/, '$2');
  const body = source.slice(match[0].length);
  return title ? { body, frontMatterTitle: title } : { body };
}

/** Plain text of inline tokens: soft line breaks become spaces, hard breaks (`br`) and block boundaries become newlines. */
function inlineText(tokens: Token[]): string {
  let out = '';
  for (const token of tokens) {
    switch (token.type) {
      case 'text': {
        const text = token as Tokens.Text;
        out += text.tokens ? inlineText(text.tokens) : decodeEntities(text.text).replace(/\s*\n\s*/g, ' ');
        break;
      }
      case 'escape':
      case 'codespan':
        out += (token as Tokens.Escape | Tokens.Codespan).text;
        break;
      case 'image':
        out += (token as Tokens.Image).text;
        break;
      case 'br':
        out += '\n';
        break;
      case 'paragraph':
        out += `${out ? '\n' : ''}${inlineText((token as Tokens.Paragraph).tokens)}`;
        break;
      case 'html':
      case 'checkbox':
        break;
      default:
        if ('tokens' in token && Array.isArray(token.tokens)) out += inlineText(token.tokens);
    }
  }
  return out
    .split('\n')
    .map((line) => line.replace(/[ \t]+/g, ' ').trim())
    .join('\n')
    .trim();
}
