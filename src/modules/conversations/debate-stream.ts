import { errors, isAborted } from '../../errors/index.js';
import { untilAborted } from '../../lib/shutdown.js';
import { errorEventOf } from '../chat/index.js';
import { runDebate, type PendingDebate } from './debate-engine.js';

/**
 * Runs a started debate for a stream, with the chat stream's conventions: events flow to the sink, a
 * failure (the key's ceiling reached mid-debate included) becomes one `error` event after the turns
 * already sent, and an abort (the client left) reports nothing. A shutdown ends the stream at once
 * with the `server_restarting` error event.
 */
export async function finishStreamedDebate(p: PendingDebate): Promise<void> {
  const shutdown = p.ctx.app.shutdown.signal;
  try {
    const outcome = await untilAborted(runDebate(p), shutdown);
    if (outcome === 'aborted') p.sink?.(errorEventOf(errors.serverRestarting(), p.ctx.log));
  } catch (err) {
    if (isAborted(err) && !shutdown.aborted) return;
    p.sink?.(errorEventOf(shutdown.aborted ? errors.serverRestarting() : err, p.ctx.log));
  }
}
