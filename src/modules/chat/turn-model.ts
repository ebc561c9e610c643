import { DomainError, errors } from '../../errors/index.js';
import type { Logger } from '../../lib/logger.js';
import {
  ProviderError,
  usageOf,
  type CompletionRequest,
  type CompletionResult,
  type ModelProvider,
  type TokenUsage,
} from '../models/provider.js';
import { countMessageTokensAsync, countTextTokensAsync } from '../models/tokenizer.js';

/**
 * The client went away (or the caller aborted): the turn stops and saves nothing. A catalogue error
 * (499, nobody left to read it) so that no adapter logs it as an unexpected failure.
 */
export class TurnAbortedError extends DomainError {
  constructor() {
    super(499, 'Chat turn aborted');
  }
}

export const CHAT_FAILED = 'Agent chat failed';
export const PLANNING_FAILED = 'Agent planning failed';

/**
 * Every model call of one turn goes through here: usage is summed over the whole turn (planner,
 * consultations, reflection, tool rounds, extraction), a provider failure becomes a catalogue 500
 * with the cause logged and never leaked, and an abort becomes TurnAbortedError.
 */
export class TurnModel {
  private total: TokenUsage = usageOf(0, 0);
  /** Tokens of a call cut short by an abort (estimated: the provider reports none). */
  private interrupted: TokenUsage = usageOf(0, 0);

  constructor(
    readonly provider: ModelProvider,
    private readonly signal: AbortSignal | undefined,
    private readonly log: Logger,
  ) {}

  /** Whole-turn usage so far, including the estimate of an interrupted call. */
  get usage(): TokenUsage {
    return add(this.total, this.interrupted);
  }

  async complete(req: CompletionRequest, failure = CHAT_FAILED): Promise<CompletionResult> {
    this.checkAborted();
    try {
      const result = await this.provider.complete({ ...req, signal: this.signal });
      this.total = add(this.total, result.usage);
      return result;
    } catch (err) {
      throw await this.failure(err, req, '', failure);
    }
  }

  /** Streams one call; `onDelta` receives the text as it arrives. */
  async stream(req: CompletionRequest, onDelta: (text: string) => void, failure = CHAT_FAILED): Promise<CompletionResult> {
    this.checkAborted();
    let received = '';
    try {
      for await (const event of this.provider.stream({ ...req, signal: this.signal })) {
        if (event.type === 'delta') {
          received += event.text;
          onDelta(event.text);
        } else {
          this.total = add(this.total, event.result.usage);
          return event.result;
        }
      }
      throw new ProviderError(`${this.provider.name} stream ended without a result`, { provider: this.provider.name });
    } catch (err) {
      throw await this.failure(err, req, received, failure);
    }
  }

  checkAborted(): void {
    if (this.signal?.aborted) throw new TurnAbortedError();
  }

  private async failure(err: unknown, req: CompletionRequest, received: string, message: string): Promise<Error> {
    if (err instanceof TurnAbortedError) return err;
    if (this.signal?.aborted || (err instanceof ProviderError && err.aborted)) {
      this.interrupted = add(this.interrupted, usageOf(await countMessageTokensAsync(req.messages), await countTextTokensAsync(received)));
      return new TurnAbortedError();
    }
    this.log.error({ err, provider: this.provider.name, model: this.provider.model }, message);
    return errors.internal(message);
  }
}

export function add(a: TokenUsage, b: TokenUsage): TokenUsage {
  return usageOf(a.promptTokens + b.promptTokens, a.completionTokens + b.completionTokens);
}
