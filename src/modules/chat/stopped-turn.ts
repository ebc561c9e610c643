/**
 * A stopped turn (issue 27): when the client leaves a streamed turn (Stop in the console, a closed SSE
 * request), the question and what had streamed of the answer are kept in the session, the answer marked
 * `stopped`, so the conversation reads as the person saw it. No memory, mood or certificate comes of it;
 * the model usage that ran is metered as before (docs/chat.md, "Disconnects").
 */
import { isAborted } from '../../errors/index.js';
import { newId } from '../../lib/ids.js';
import { sessionNotFound, sessionTitle } from './sessions.service.js';
import { writeExchange } from './turn.repository.js';
import type { Prepared, TurnInputs } from './turn-state.js';

/**
 * Called with the failure of a prepared turn: when it is the client leaving (not a shutdown, which ends
 * the stream with `server_restarting`) and the turn streams into a session, the exchange is stored as far
 * as it got. A failure to store is logged; the turn ends aborted either way.
 */
export async function keepStoppedTurn(s: TurnInputs & Prepared, err: unknown): Promise<void> {
  const { ctx, streamed } = s;
  if (!streamed || !isAborted(err) || ctx.app.shutdown.signal.aborted) return;
  try {
    const saved = await writeExchange(ctx.em.fork(), {
      workspaceId: ctx.caller.workspace.id,
      userId: ctx.caller.user.id,
      sessionId: s.sessionId,
      existing: s.existing,
      title: sessionTitle(s.input.message),
      agent: s.agent,
      model: s.model.provider.model,
      userMessageId: newId('msg'),
      userMessage: s.input.message,
      answerId: newId('msg'),
      answer: streamed.text,
      usage: s.model.usage,
      mood: null,
      citations: streamed.citations,
      stopped: true,
      proofId: null,
      stages: s.stages.done,
      memories: [],
      now: ctx.clock.now(),
    });
    if (!saved) throw sessionNotFound(s.sessionId);
  } catch (failure) {
    ctx.log.error({ err: failure, sessionId: s.sessionId }, 'could not keep a stopped chat turn');
  }
}
