import { describe, expect, it } from 'vitest';
import { chunkDocument, type Chunk } from '../../../src/modules/knowledge/parsing/chunk.js';
import { parseDocument } from '../../../src/modules/knowledge/parsing/parse-document.js';
import { extractQaPairs } from '../../../src/modules/knowledge/parsing/qa.js';

const chunk = (ordinal: number, text: string, section = 'FAQ', page = 1): Chunk => ({ ordinal, text, section, page, tokenEstimate: 0 });

describe('extractQaPairs', () => {
  it('pairs a question with the sentences after it, up to the next question', () => {
    const pairs = extractQaPairs([
      chunk(0, 'How do I reset my password? Open the login page. Click "Forgot password".\n\nCan I change my plan? Yes, from the billing page.'),
    ]);
    expect(pairs).toEqual([
      { question: 'How do I reset my password?', answer: 'Open the login page. Click "Forgot password".', chunkOrdinal: 0 },
      { question: 'Can I change my plan?', answer: 'Yes, from the billing page.', chunkOrdinal: 0 },
    ]);
  });

  it('removes Q/A labels and reads French questions', () => {
    const pairs = extractQaPairs([chunk(0, 'Q: Is there a free trial?\nA: Yes, 14 days.\n\nQuestion : Combien coûte l’abonnement ?\nRéponse : 99 € par mois.')]);
    expect(pairs).toEqual([
      { question: 'Is there a free trial?', answer: 'Yes, 14 days.', chunkOrdinal: 0 },
      { question: 'Combien coûte l’abonnement ?', answer: '99 € par mois.', chunkOrdinal: 0 },
    ]);
  });

  it('yields nothing for a question without answer, a one-word question, or an answer in another section', () => {
    expect(extractQaPairs([chunk(0, 'What next? Why?')])).toEqual([]);
    expect(extractQaPairs([chunk(0, 'Why? Because.')])).toEqual([]);
    expect(extractQaPairs([chunk(0, 'Where is the office?', 'A'), chunk(1, 'It is in Lyon.', 'B')])).toEqual([]);
  });

  it('continues an answer into the next chunk of the same section, at most five sentences', () => {
    const pairs = extractQaPairs([
      chunk(3, 'Intro text. What is included?'),
      chunk(4, 'One. Two. Three. Four. Five. Six.', 'FAQ', 2),
    ]);
    expect(pairs).toEqual([{ question: 'What is included?', answer: 'One. Two. Three. Four. Five.', chunkOrdinal: 3 }]);
  });

  it('pairs a question heading with the text that opens its section', async () => {
    const markdown = ['# FAQ', '', '## How do I cancel my subscription?', '', 'Write to support. We confirm by email.', '', '## Pricing', '', 'Plans start at 10 EUR.'].join('\n');
    const doc = await parseDocument({ bytes: Buffer.from(markdown), filename: 'faq.md' });
    expect(extractQaPairs(chunkDocument(doc))).toEqual([
      { question: 'How do I cancel my subscription?', answer: 'Write to support. We confirm by email.', chunkOrdinal: 0 },
    ]);
  });

  it('reads sentences repeated by chunk overlap once, and each question once', () => {
    const sentences = Array.from({ length: 12 }, (_, i) => `Answer sentence ${i} has several words in it.`);
    const text = `Intro sentence here. Which steps apply? ${sentences.join(' ')}`;
    const chunks = chunkDocument({ format: 'text', blocks: [{ text, section: 'S', page: 1 }] }, { targetTokens: 40, overlapSentences: 1 });
    expect(chunks.length).toBeGreaterThan(2);
    const pairs = extractQaPairs([...chunks, chunk(chunks.length, 'Which steps apply? Duplicate answer.', 'Other')]);
    expect(pairs).toEqual([{ question: 'Which steps apply?', answer: sentences.slice(0, 5).join(' '), chunkOrdinal: 0 }]);
  });
});
