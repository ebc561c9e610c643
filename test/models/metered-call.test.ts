import { describe, expect, it } from 'vitest';
import { MeteredModel } from '../../src/modules/models/metered-call.js';
import { usageOf, type CompletionResult, type ModelProvider, type StreamEvent } from '../../src/modules/models/provider.js';

const result = (content: string): CompletionResult => ({ content, toolCalls: [], usage: usageOf(3, 2), finishReason: 'stop', model: 'm' });

function provider(batched: boolean): ModelProvider {
  return {
    name: 'fake',
    model: 'm',
    modelClass: 'standard',
    local: true,
    supportsTools: false,
    complete: async () => result('whole'),
    countTokens: async () => 0,
    // The one-by-one stream says something else, so that a test sees which one was read.
    stream: async function* (): AsyncGenerator<StreamEvent> {
      yield { type: 'delta', text: 'one by one' };
      yield { type: 'done', result: result('one by one') };
    },
    ...(batched
      ? {
          streamBatches: async function* (): AsyncGenerator<StreamEvent[]> {
            yield [{ type: 'delta', text: 'Hello' }, { type: 'delta', text: ', ' }];
            yield [{ type: 'delta', text: 'world' }];
            yield [{ type: 'done', result: result('Hello, world') }];
          },
        }
      : {}),
  };
}

const meter = { record: async () => undefined };

/** MeteredModel reads a provider's batched stream when it has one (issue 28, twelfth pass: one asynchronous step per read, not per delta). */
describe('MeteredModel.call, streamed', () => {
  it('reads the batched stream of a provider that has one: every delta in order, then the result', async () => {
    const deltas: string[] = [];
    const run = new MeteredModel(provider(true), { meter, route: 'test' });
    const answer = await run.call({ messages: [{ role: 'user', content: 'hi' }] }, (text) => deltas.push(text));
    expect(deltas).toEqual(['Hello', ', ', 'world']);
    expect(answer.content).toBe('Hello, world');
    expect(run.usage).toEqual(usageOf(3, 2));
  });

  it('reads the one-by-one stream of a provider without a batched one', async () => {
    const deltas: string[] = [];
    const answer = await new MeteredModel(provider(false), { meter, route: 'test' }).call({ messages: [{ role: 'user', content: 'hi' }] }, (text) => deltas.push(text));
    expect(deltas).toEqual(['one by one']);
    expect(answer.content).toBe('one by one');
  });
});
