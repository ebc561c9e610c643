import { describe, expect, it } from 'vitest';
import { chunkDocument, estimateTokens } from '../../../src/modules/knowledge/parsing/chunk.js';
import type { DocumentBlock, ParsedDocument } from '../../../src/modules/knowledge/parsing/parse-document.js';

const doc = (blocks: DocumentBlock[]): ParsedDocument => ({ format: 'text', blocks });
const sentence = (i: number) => `Sentence number ${i} talks about topic ${i} in some detail.`;
const paragraph = (from: number, count: number) => Array.from({ length: count }, (_, i) => sentence(from + i)).join(' ');

describe('estimateTokens', () => {
  it('counts 1.3 tokens per short word, a fifth of the length of long words, one per CJK character', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('one two three four five six seven eight nine ten')).toBe(13);
    expect(estimateTokens('https://example.com/a/very/long/path')).toBe(8);
    expect(estimateTokens('服务费为每月')).toBe(6);
  });
});

describe('chunkDocument', () => {
  it('merges small blocks of one section and page into one chunk', () => {
    const chunks = chunkDocument(
      doc([
        { text: 'First short paragraph.', section: 'A', page: 1 },
        { text: 'Second short paragraph.', section: 'A', page: 1 },
        { text: 'Third short paragraph.', section: 'A', page: 1 },
      ]),
    );
    expect(chunks).toEqual([
      {
        ordinal: 0,
        text: 'First short paragraph.\n\nSecond short paragraph.\n\nThird short paragraph.',
        section: 'A',
        page: 1,
        tokenEstimate: 14,
      },
    ]);
  });

  it('never crosses a section or a page boundary', () => {
    const chunks = chunkDocument(
      doc([
        { text: 'Alpha one.', section: 'A', page: 1 },
        { text: 'Alpha two.', section: 'A', page: 1 },
        { text: 'Beta one.', section: 'B', page: 1 },
        { text: 'Beta on the next page.', section: 'B', page: 2 },
        { text: 'Alpha again.', section: 'A', page: 2 },
      ]),
    );
    expect(chunks.map((c) => [c.ordinal, c.section, c.page, c.text])).toEqual([
      [0, 'A', 1, 'Alpha one.\n\nAlpha two.'],
      [1, 'B', 1, 'Beta one.'],
      [2, 'B', 2, 'Beta on the next page.'],
      [3, 'A', 2, 'Alpha again.'],
    ]);
  });

  it('splits a long block on sentence boundaries, within the target, with one sentence of overlap', () => {
    const text = paragraph(1, 30);
    const chunks = chunkDocument(doc([{ text, section: 'Long', page: 3 }]), { targetTokens: 60 });
    expect(chunks.length).toBeGreaterThan(3);
    for (const chunk of chunks) {
      expect(chunk.tokenEstimate).toBeLessThanOrEqual(60);
      expect(chunk.tokenEstimate).toBe(estimateTokens(chunk.text));
      expect(chunk).toMatchObject({ section: 'Long', page: 3 });
      expect(chunk.text).toMatch(/^Sentence number \d+ .*detail\.$/);
    }
    for (let i = 1; i < chunks.length; i++) {
      const previousLast = chunks[i - 1].text.split(/(?<=\.) /).pop();
      expect(chunks[i].text.startsWith(previousLast!)).toBe(true);
    }
    const covered = new Set(chunks.flatMap((c) => c.text.match(/number \d+/g) ?? []));
    expect(covered.size).toBe(30);
  });

  it('does not overlap when overlapSentences is 0, and only repeats sentences of the block being split', () => {
    const text = paragraph(1, 30);
    const chunks = chunkDocument(doc([{ text, section: '', page: 1 }]), { targetTokens: 60, overlapSentences: 0 });
    expect(chunks.map((c) => c.text).join(' ')).toBe(text);

    const mixed = chunkDocument(
      doc([
        { text: 'A short intro paragraph.', section: '', page: 1 },
        { text: paragraph(1, 8), section: '', page: 1 },
      ]),
      { targetTokens: 60, overlapSentences: 2 },
    );
    expect(mixed[0].text.startsWith('A short intro paragraph.\n\nSentence number 1 ')).toBe(true);
    expect(mixed.slice(1).every((c) => !c.text.includes('intro'))).toBe(true);
  });

  it('keeps a block that fits whole instead of filling the previous chunk with part of it', () => {
    const chunks = chunkDocument(
      doc([
        { text: paragraph(1, 3), section: '', page: 1 },
        { text: paragraph(4, 3), section: '', page: 1 },
      ]),
      { targetTokens: 45 },
    );
    expect(chunks.map((c) => c.text)).toEqual([paragraph(1, 3), paragraph(4, 3)]);
  });

  it('cuts a single sentence longer than the target on word boundaries', () => {
    const words = Array.from({ length: 100 }, (_, i) => `w${i}`).join(' ');
    const chunks = chunkDocument(doc([{ text: words, section: '', page: 1 }]), { targetTokens: 26, overlapSentences: 0 });
    expect(chunks.map((c) => c.text.split(' ').length)).toEqual([20, 20, 20, 20, 20]);
    expect(chunks.map((c) => c.text).join(' ')).toBe(words);
  });

  it('keeps line breaks of lists and tables when splitting them', () => {
    const lines = Array.from({ length: 12 }, (_, i) => `Row ${i} | value ${i} | note ${i}`).join('\n');
    const chunks = chunkDocument(doc([{ text: lines, section: 'T', page: 1 }]), { targetTokens: 30, overlapSentences: 0 });
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.map((c) => c.text).join('\n')).toBe(lines);
  });

  it('is deterministic and numbers chunks from 0', () => {
    const input = doc([
      { text: paragraph(1, 40), section: 'S', page: 1 },
      { text: paragraph(41, 5), section: 'S', page: 2 },
    ]);
    const first = chunkDocument(input);
    expect(chunkDocument(input)).toEqual(first);
    expect(first.map((c) => c.ordinal)).toEqual(first.map((_, i) => i));
    expect(first.every((c) => c.tokenEstimate <= 350)).toBe(true);
  });

  it('skips empty blocks', () => {
    expect(chunkDocument(doc([{ text: '   ', section: '', page: 1 }]))).toEqual([]);
  });
});
