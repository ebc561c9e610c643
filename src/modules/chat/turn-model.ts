import { ErrorCode, errors, isAborted, toDomainError } from '../../errors/index.js';
import type { Logger } from '../../lib/logger.js';
import type { MeteredModel } from '../models/index.js';
import type { CompletionRequest, CompletionResult, ModelProvider, TokenUsage } from '../models/index.js';

export const CHAT_FAILED = 'Agent chat failed';
export const PLANNING_FAILED = 'Agent planning failed';

/**
 * Every model call of one turn goes through here, onto the turn's metered model (usage summed over
 * the whole turn: planner, consultations, reflection, tool rounds, extraction); a provider failure becomes a catalogue 500
 * with the cause logged and never leaked, and an abort becomes the catalogue's `turn_aborted` (499,
 * nobody left to read it: the turn stops and saves nothing, and no adapter logs it as a failure).
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
    if (this.signal?.aborted) throw errors.turnAborted();
  }

  private failure(err: unknown, message: string): Error {
    if (isAborted(err)) return err as Error;
    if (this.signal?.aborted || toDomainError(err).error.code === ErrorCode.turnAborted) {
      return errors.turnAborted();
    }
    this.log.error({ err, provider: this.provider.name, model: this.provider.model }, message);
    return errors.internal(message);
  }
}
