/** The scripted model server (no delay, four streamed chunks, reported usage) in a process of its own; prints its OpenAI base URL. */
import { startScriptedModelServer } from '../../test/support/scripted-model-server.js';

const model = await startScriptedModelServer({ delayMs: Number(process.env.DELAY_MS ?? 0) });
model.setDefault({ chunks: ['The ', 'answer ', 'is ', '42.'], usage: { prompt: 400, completion: 4 } });
process.stdout.write(`${model.baseUrl}\n`);
