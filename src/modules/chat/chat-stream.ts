import { toDomainError } from '../../errors/index.js';
import type { Logger } from '../../lib/logger.js';
import type { ChatStreamEvent } from './chat-events.js';
import { continueTurn, type PendingTurn } from './chat.service.js';
import { TurnAbortedError } from './turn-model.js';

/** A failure after the stream opened: the native error body plus its status (internals never leak). */
export function errorEventOf(err: unknown, log: Logger): Extract<ChatStreamEvent, { type: 'error' }> {
  const { error, unexpected } = toDomainError(err);
  if (unexpected) log.error({ err }, 'chat stream failed');
  return {
    type: 'error',
    data: { status: error.status, error: error.message, ...(error.code ? { code: error.code } : {}), ...error.details },
  };
}

/**
 * Runs the rest of a started turn for a stream: events flow to the turn's sink, a failure becomes
 * one `error` event, and an abort (the client left) reports nothing and saves nothing.
 */
export async function finishStreamedTurn(p: PendingTurn): Promise<void> {
  try {
    await continueTurn(p);
  } catch (err) {
    if (err instanceof TurnAbortedError) return;
    p.opts.sink?.(errorEventOf(err, p.ctx.log));
  }
}
