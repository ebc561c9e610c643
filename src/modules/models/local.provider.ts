import { answerLocally } from './local-answer.js';
import {
  usageOf,
  type ChatMessage,
  type CompletionRequest,
  type CompletionResult,
  type ModelClass,
  type ModelProvider,
  type StreamEvent,
} from './provider.js';
import { abortedError } from './provider-failure.js';
import { jsonFromAnswer } from './structured-output.js';
import { countMessageTokensAsync, countTextTokensAsync } from './tokenizer.js';

export const LOCAL_MODEL_NAME = 'svc-local-1';

/**
 * The built-in model, used when no model server is configured and for sensitive calls: no
 * network, no weights. It answers extractively from the turn's material (passages, context,
 * memories, persona), cites passages as [n], and says plainly when it found nothing. Same input,
 * same output.
 */
export class LocalProvider implements ModelProvider {
  readonly name = 'local';
  readonly model = LOCAL_MODEL_NAME;
  readonly modelClass: ModelClass = 'light';
  readonly local = true;
  readonly supportsTools = false;

  countTokens(messages: ChatMessage[]): Promise<number> {
    return countMessageTokensAsync(messages);
  }

  async complete(req: CompletionRequest): Promise<CompletionResult> {
    if (req.signal?.aborted) throw abortedError(this.name, req.signal);
    const answer = answerLocally(req);
    // It writes no JSON of its own: a requested format is filled in from its answer (or refused, 400).
    const content = req.responseFormat ? jsonFromAnswer(answer.content, req.responseFormat) : answer.content;
    return {
      content,
      toolCalls: [],
      usage: usageOf(await countMessageTokensAsync(req.messages), await countTextTokensAsync(content)),
      finishReason: answer.truncated ? 'length' : 'stop',
      model: this.model,
    };
  }

  /** The answer word by word (each delta carries its leading space), then the result. */
  async *stream(req: CompletionRequest): AsyncGenerator<StreamEvent> {
    const result = await this.complete(req);
    for (const text of result.content.match(/\s*\S+\s*$|\s*\S+/g) ?? []) {
      if (req.signal?.aborted) throw abortedError(this.name, req.signal);
      yield { type: 'delta', text };
    }
    yield { type: 'done', result };
  }
}
