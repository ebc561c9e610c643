import { chatStreamError, errors, isAborted, toDomainError } from '../../errors/index.js';
import type { Logger } from '../../lib/logger.js';
import { untilAborted } from '../../lib/shutdown.js';
import type { ChatStreamEvent } from './chat-events.js';
import { continueTurn, type PendingTurn } from './chat.service.js';

/** A failure after the stream opened, as the renderer words it for the chat stream (internals never leak). */
export function errorEventOf(err: unknown, log: Logger): Extract<ChatStreamEvent, { type: 'error' }> {
  const { error, unexpected } = toDomainError(err);
  if (unexpected) log.error({ err }, 'chat stream failed');
  return chatStreamError(error);
}

/**
 * Runs the rest of a started turn for a stream: events flow to the turn's sink, a failure becomes
 * one `error` event, and an abort (the client left) reports nothing and saves nothing. When the server
 * stops waiting during a shutdown, the stream ends at once with the `server_restarting` error event
 * (the turn itself is aborted through its context's signal).
 */
export async function finishStreamedTurn(p: PendingTurn): Promise<void> {
  const shutdown = p.ctx.app.shutdown.signal;
  try {
    const outcome = await untilAborted(continueTurn(p), shutdown);
    if (outcome === 'aborted') p.opts.sink?.(errorEventOf(errors.serverRestarting(), p.ctx.log));
  } catch (err) {
    if (isAborted(err) && !shutdown.aborted) return;
    p.opts.sink?.(errorEventOf(shutdown.aborted ? errors.serverRestarting() : err, p.ctx.log));
  }
}
