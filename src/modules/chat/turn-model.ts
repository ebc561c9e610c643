import { DomainError, errors } from '../../errors/index.js';
import type { Logger } from '../../lib/logger.js';
import type { MeteredModel } from '../models/metered-call.js';
import { ProviderError, type CompletionRequest, type CompletionResult, type ModelProvider, type TokenUsage } from '../models/provider.js';

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
 * Every model call of one turn goes through here, onto the turn's metered model (usage summed over
 * the whole turn: planner, consultations, reflection, tool rounds, extraction); a provider failure becomes a catalogue 500
 * with the cause logged and never leaked, and an abort becomes TurnAbortedError.
 */
export class TurnModel {
  constructor(
    readonly run: MeteredModel,
    private readonly signal: AbortSignal | undefined,
    private readonly log: Logger,
  ) {}

  get provider(): ModelProvider {
    return this.run.provider;
  }

  /** Whole-turn usage so far, including the estimate of an interrupted call. */
  get usage(): TokenUsage {
    return this.run.usage;
  }

  async complete(req: CompletionRequest, failure = CHAT_FAILED): Promise<CompletionResult> {
    this.checkAborted();
    try {
      return await this.run.call(req);
    } catch (err) {
      throw this.failure(err, failure);
    }
  }

  /** Streams one call; `onDelta` receives the text as it arrives. */
  async stream(req: CompletionRequest, onDelta: (text: string) => void, failure = CHAT_FAILED): Promise<CompletionResult> {
    this.checkAborted();
    try {
      return await this.run.call(req, onDelta);
    } catch (err) {
      throw this.failure(err, failure);
    }
  }

  checkAborted(): void {
    if (this.signal?.aborted) throw new TurnAbortedError();
  }

  private failure(err: unknown, message: string): Error {
    if (err instanceof TurnAbortedError) return err;
    if (this.signal?.aborted || (err instanceof ProviderError && err.aborted)) {
      return new TurnAbortedError();
    }
    this.log.error({ err, provider: this.provider.name, model: this.provider.model }, message);
    return errors.internal(message);
  }
}
