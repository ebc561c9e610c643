import { describe, expect, it } from 'vitest';
import { OpenAIStream } from '../../src/modules/gateway/openai.dialect.js';
import type { PreparedCall } from '../../src/modules/gateway/index.js';

/**
 * OpenAIStream's text deltas are encoded from a template made once per stream (issue 28): each must be the
 * bytes the chunk object would give, whatever the text (quotes, escapes, NUL, astral characters, U+2028)
 * and whatever the model's name holds.
 */
describe('OpenAIStream.delta', () => {
  it('encodes each delta as its chunk object would be', () => {
    for (const includeUsage of [true, false]) {
      const model = 'agent:"odd"\u0000name';
      const stream = new OpenAIStream({ model } as PreparedCall, 1_700_000_000, includeUsage);
      for (const text of ['The', ' a"b\\c\n', '\u0000', 'é😀\u2028', '']) {
        const [frame] = stream.delta(text);
        expect(frame && 'json' in frame).toBe(true);
        const json = (frame as { json: string }).json;
        const { id } = JSON.parse(json) as { id: string };
        expect(json).toBe(
          JSON.stringify({
            id,
            object: 'chat.completion.chunk',
            created: 1_700_000_000,
            model,
            system_fingerprint: null,
            choices: [{ index: 0, delta: { content: text }, finish_reason: null, logprobs: null }],
            ...(includeUsage ? { usage: null } : {}),
          }),
        );
      }
    }
  });
});
