/**
 * The scripted model server (DELAY_MS, default no delay; four streamed chunks, reported usage) in a process of its own;
 * prints its OpenAI base URL. When spawned with an IPC channel, any message is answered with the last request body it
 * received (so a bench can send the model exactly what the service sent it: bench/chat-turn.ts's floor).
 */
import { startScriptedModelServer } from '../../test/support/scripted-model-server.js';

const model = await startScriptedModelServer({ delayMs: Number(process.env.DELAY_MS ?? 0) });
model.setDefault({ chunks: ['The ', 'answer ', 'is ', '42.'], usage: { prompt: 400, completion: 4 } });
if (process.send) {
  process.on('message', () => {
    process.send!({ lastRequest: model.requests.at(-1) ?? null });
    model.requests.length = 0;
  });
  process.on('disconnect', () => void model.close().then(() => process.exit(0)));
}
process.stdout.write(`${model.baseUrl}\n`);
