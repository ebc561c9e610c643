import { describe, expect, it } from 'vitest';
import { OpenAIStream } from '../../src/modules/gateway/openai.dialect.js';
import { AnthropicStream } from '../../src/modules/gateway/anthropic.dialect.js';
import { ResponsesStream, type ResponseEcho } from '../../src/modules/gateway/responses.dialect.js';
import { sseText, type GatewayAnswer, type PreparedCall, type SseFrame } from '../../src/modules/gateway/index.js';

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

const TEXTS = ['The', ' a"b\\c\n', '\u0000', 'é😀\u2028', ''];
const jsonOf = (f: SseFrame | undefined): string => {
  if (!f) throw new Error('no frame');
  return 'json' in f ? f.json : JSON.stringify(f.data);
};
const answer = (content: string): GatewayAnswer =>
  ({ content, toolCalls: [], usage: { promptTokens: 3, completionTokens: 4, totalTokens: 7 }, finishReason: 'stop', model: 'm', modelClass: 'standard', proofId: 'prf_x' }) as GatewayAnswer;

/** The Anthropic and Responses streams write their text deltas directly too (issue 28): the same bytes as the event objects. */
describe('AnthropicStream.delta', () => {
  it('encodes each delta as its content_block_delta event would be, after the block it opens', () => {
    const stream = new AnthropicStream({ model: 'm', call: { messages: [], tools: [] } } as unknown as PreparedCall);
    TEXTS.forEach((text, i) => {
      const frames = stream.delta(text);
      expect(frames.map((f) => f.event)).toEqual(i === 0 ? ['content_block_start', 'content_block_delta'] : ['content_block_delta']);
      expect(jsonOf(frames.at(-1))).toBe(JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } }));
    });
    expect(stream.finish(answer(TEXTS.join('')))[0]).toEqual({ event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } });
  });
});

describe('ResponsesStream.delta', () => {
  it('encodes each delta as its response.output_text.delta event would be, numbered in order with the events around it', () => {
    const echo = { instructions: null, max_output_tokens: null, parallel_tool_calls: true, temperature: null, top_p: null, text: { format: { type: 'text' } }, tool_choice: 'auto', tools: [] } as unknown as ResponseEcho;
    const stream = new ResponsesStream({ model: 'm' } as PreparedCall, 1_700_000_000, echo);
    const all: SseFrame[] = [...stream.start()];
    let itemId: string | undefined;
    TEXTS.forEach((text, i) => {
      const frames = stream.delta(text);
      expect(frames.map((f) => f.event)).toEqual(
        i === 0 ? ['response.output_item.added', 'response.content_part.added', 'response.output_text.delta'] : ['response.output_text.delta'],
      );
      itemId ??= (frames[0] as { data: { item: { id: string } } }).data.item.id;
      const seq = all.length;
      all.push(...frames);
      expect(jsonOf(frames.at(-1))).toBe(
        JSON.stringify({ type: 'response.output_text.delta', sequence_number: seq + frames.length - 1, item_id: itemId, output_index: 0, content_index: 0, delta: text, logprobs: [] }),
      );
    });
    all.push(...stream.finish(answer(TEXTS.join(''))));
    expect(all.map((f) => (JSON.parse(jsonOf(f)) as { sequence_number: number }).sequence_number)).toEqual(all.map((_, i) => i));
    expect((JSON.parse(jsonOf(all.at(-4))) as { text: string }).text).toBe(TEXTS.join(''));
  });
});

/** The route writes each delta as `deltaText` (issue 28, twelfth pass: no frame objects per delta): the same bytes as its frames. */
describe('deltaText', () => {
  it('writes each delta as the wire text of its frames, in the three dialects', () => {
    const echo = { instructions: null, max_output_tokens: null, parallel_tool_calls: true, temperature: null, top_p: null, text: { format: { type: 'text' } }, tool_choice: 'auto', tools: [] } as unknown as ResponseEcho;
    const prepared = { model: 'agent:"odd"\u0000name', call: { messages: [], tools: [] } } as unknown as PreparedCall;
    const pairs = [
      [new OpenAIStream(prepared, 1_700_000_000, true), new OpenAIStream(prepared, 1_700_000_000, true)],
      [new OpenAIStream(prepared, 1_700_000_000, false), new OpenAIStream(prepared, 1_700_000_000, false)],
      [new AnthropicStream(prepared), new AnthropicStream(prepared)],
      [new ResponsesStream(prepared, 1_700_000_000, echo), new ResponsesStream(prepared, 1_700_000_000, echo)],
    ] as const;
    for (const [framed, direct] of pairs) {
      // The ids are random per stream: the direct one takes the framed one's.
      Object.assign(direct, { id: (framed as unknown as { id: string }).id, messageId: (framed as unknown as { messageId?: string }).messageId });
      for (const text of TEXTS) expect(direct.deltaText(text)).toBe(framed.delta(text).map(sseText).join(''));
    }
  });
});
