import type { Logger } from '../../lib/logger.js';
import { metrics } from '../../lib/metrics.js';
import { withSpan } from '../../lib/tracing.js';
import {
  ProviderError,
  usageOf,
  type CompletionRequest,
  type CompletionResult,
  type ModelClass,
  type ModelProvider,
  type TokenUsage,
} from './provider.js';
import { countMessageTokensAsync, countTextTokensAsync } from './tokenizer.js';
import { unnamed } from '../../lib/unnamed.js';

/**
 * Where an answer's consumption is recorded: the request's admission (usage/metering.service.ts).
 * `record` records once; a second call returns the first one's result.
 */
export interface UsageMeter {
  record(entry: { route: string; modelClass: ModelClass; usage: TokenUsage; model?: string }): Promise<unknown>;
}

export interface MeteredModelOptions {
  /** The request's admission. */
  meter: UsageMeter;
  /** The ledger's route label, e.g. `POST /v1/chat/completions`. */
  route: string;
  /** The caller's signal: aborting it stops the call in flight. */
  signal?: AbortSignal;
  /** Prompt tokens of an interrupted call, by our count; default: the request's messages. */
  countPrompt?: (req: CompletionRequest) => Promise<number>;
}

/**
 * The model calls of one answer, metered as one answer: a chat turn's planner, consultations,
 * reflection, tool rounds and extraction, the gateway's single call, a debate's rounds. Every way in
 * that runs a model goes through `call`, then records once with `record` (or `recordUnfinished` when
 * the answer failed or was abandoned).
 *
 * `call` streams when given `onDelta` (which receives the text as it arrives) and rethrows any
 * failure as it came: the caller words it. A call the signal interrupted is counted all the same, by
 * the tokenizer: the prompt it sent and the text received so far (the provider reports nothing).
 */
export class MeteredModel {
  private completed: TokenUsage = usageOf(0, 0);
  private interrupted: TokenUsage = usageOf(0, 0);

  constructor(
    readonly provider: ModelProvider,
    private readonly opts: MeteredModelOptions,
  ) {}

  /** Usage of every call so far, the estimate of interrupted ones included. */
  get usage(): TokenUsage {
    return addUsage(this.completed, this.interrupted);
  }

  /** One model call, in a `model.call` span (provider, model, tokens: docs/operations.md, "Traces"). */
  call(req: CompletionRequest, onDelta?: (text: string) => void): Promise<CompletionResult> {
    const { provider } = this;
    const attrs = { 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': provider.name, 'gen_ai.request.model': provider.model, 'svc.model.streamed': Boolean(onDelta) };
    return withSpan('model.call', attrs, async (span) => {
      const result = await this.send(req, onDelta);
      span.set({ 'gen_ai.usage.input_tokens': result.usage.promptTokens, 'gen_ai.usage.output_tokens': result.usage.completionTokens });
      return result;
    });
  }

  private async send(req: CompletionRequest, onDelta?: (text: string) => void): Promise<CompletionResult> {
    const { provider } = this;
    const sent = { ...req, signal: this.opts.signal };
    const labels = { provider: provider.name, model: provider.model };
    const started = performance.now();
    const elapsed = unnamed(() => (performance.now() - started) / 1000);
    let firstTokenSeconds: number | undefined;
    let received = '';
    try {
      let result: CompletionResult | undefined;
      if (!onDelta) result = await provider.complete(sent);
      else if (provider.streamBatches) {
        // One asynchronous step per read of the answer, not per delta (issue 28), where the provider has it.
        read: for await (const batch of provider.streamBatches(sent)) {
          for (let i = 0; i < batch.length; i++) {
            const event = batch[i]!;
            if (event.type === 'done') {
              result = event.result;
              break read;
            }
            if (firstTokenSeconds === undefined && event.text) firstTokenSeconds = elapsed();
            received += event.text;
            onDelta(event.text);
          }
        }
      } else {
        for await (const event of provider.stream(sent)) {
          if (event.type === 'done') {
            result = event.result;
            break;
          }
          if (firstTokenSeconds === undefined && event.text) firstTokenSeconds = elapsed();
          received += event.text;
          onDelta(event.text);
        }
      }
      if (!result) throw new ProviderError(`${provider.name} stream ended without a result`, { provider: provider.name });
      this.completed = addUsage(this.completed, result.usage);
      metrics.modelCall(labels, 'ok', { seconds: elapsed(), firstTokenSeconds }, result.usage);
      return result;
    } catch (err) {
      const aborted = this.opts.signal?.aborted || (err instanceof ProviderError && err.aborted);
      metrics.modelCall(labels, aborted ? 'aborted' : 'failed', { seconds: elapsed(), firstTokenSeconds });
      if (aborted) {
        const prompt = await (this.opts.countPrompt ?? countRequestPrompt)(req);
        this.interrupted = addUsage(this.interrupted, usageOf(prompt, await countTextTokensAsync(received)));
      }
      throw err;
    }
  }

  /** Records the whole usage through the admission, under the answering model's name (default the provider's). */
  async record(model?: string): Promise<void> {
    await this.opts.meter.record(this.entry(model));
  }

  /** What `record` records: the whole usage under the answering model's name (default the provider's). */
  entry(model?: string): { route: string; modelClass: ModelClass; usage: TokenUsage; model: string } {
    return { route: this.opts.route, modelClass: this.provider.modelClass, usage: this.usage, model: model ?? this.provider.model };
  }

  /**
   * An answer that failed or was abandoned after a model ran is metered on what ran; nothing ran,
   * nothing is recorded (refusals consume nothing). Never throws: the caller is already failing.
   */
  async recordUnfinished(log: Logger): Promise<void> {
    if (this.usage.totalTokens === 0) return;
    try {
      await this.record();
    } catch (err) {
      log.error({ err, route: this.opts.route }, 'could not meter an unfinished answer');
    }
  }
}

const countRequestPrompt = (req: CompletionRequest): Promise<number> => countMessageTokensAsync(req.messages);

export function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  return usageOf(a.promptTokens + b.promptTokens, a.completionTokens + b.completionTokens);
}
