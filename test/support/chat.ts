import { startTestApp, type TestApp } from './app.js';
import { startScriptedModelServer, type ScriptedModelServer } from './scripted-model-server.js';

/** The app with the scripted OpenAI-compatible server as its default model (the real provider code runs). */
export async function startScriptedChatApp(env: Record<string, string> = {}): Promise<{ t: TestApp; model: ScriptedModelServer }> {
  const model = await startScriptedModelServer();
  const t = await startTestApp({
    env: {
      SVC_MODEL_BASE_URL: model.baseUrl,
      SVC_MODEL_API_KEY: 'test-key',
      SVC_MODEL: 'scripted-model',
      SVC_MODEL_CLASS: 'standard',
      SVC_RATE_AGENT_CHAT: '10000',
      ...env,
    },
  });
  return { t, model };
}

/** Messages sent to the scripted model by one request, as role/content pairs. */
export function sentMessages(request: Record<string, unknown>): { role: string; content: string }[] {
  return (request.messages as { role: string; content: string | null }[]).map((m) => ({ role: m.role, content: m.content ?? '' }));
}

export const systemOf = (request: Record<string, unknown>): string => sentMessages(request)[0]?.content ?? '';
