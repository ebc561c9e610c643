import { newId } from '../../src/lib/ids.js';
import type { ChatStreamEvent } from '../../src/modules/chat/chat-events.js';
import { api, startTestApp, type TestApp, type TestTenant } from '../support/app.js';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server.js';

export const persona = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  role: 'Financial analyst',
  personality: 'calm and precise',
  mission: 'Answer finance questions',
  decisionStyle: 'data first',
  systemPrompt: 'Always cite numbers.',
  ...extra,
});

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

export async function createAgent(t: TestApp, key: string, body: Record<string, unknown>): Promise<string> {
  const res = await api(t.baseUrl, key).post('/v1/agents', body);
  if (res.status !== 201) throw new Error(`agent creation failed: ${res.status} ${res.text}`);
  return res.body.agent.id as string;
}

/** Turns an agent into a poste the only way the API allows: both personality and decisionStyle emptied. */
export async function makePoste(t: TestApp, key: string, id: string): Promise<void> {
  const res = await api(t.baseUrl, key).put(`/v1/agents/${id}`, { personality: '', decisionStyle: '' });
  if (res.status !== 200) throw new Error(`poste update failed: ${res.status}`);
}

export interface SseResult {
  status: number;
  headers: Headers;
  /** The JSON body when the server answered before opening a stream. */
  body?: any;
  events: ChatStreamEvent[];
  comments: string[];
}

/** Reads one whole chat stream (or the JSON error sent instead of it). */
export async function streamChat(t: TestApp, key: string, path: string, body: unknown): Promise<SseResult> {
  const res = await fetch(t.baseUrl + path, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  if (!(res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined, events: [], comments: [] };
  }
  return { status: res.status, headers: res.headers, ...parseSse(text) };
}

export function parseSse(text: string): { events: ChatStreamEvent[]; comments: string[] } {
  const events: ChatStreamEvent[] = [];
  const comments: string[] = [];
  for (const block of text.split('\n\n')) {
    for (const line of block.split('\n')) {
      if (line.startsWith('data: ')) events.push(JSON.parse(line.slice(6)) as ChatStreamEvent);
      else if (line.startsWith(':')) comments.push(line);
    }
  }
  return { events, comments };
}

export const eventsOf = <K extends ChatStreamEvent['type']>(events: ChatStreamEvent[], type: K) =>
  events.filter((e): e is Extract<ChatStreamEvent, { type: K }> => e.type === type);

/** Spends the whole allowance of a workspace, as if earlier answers had used it. */
export async function exhaustQuestions(t: TestApp, workspaceId: string, questions: number): Promise<void> {
  await t.app.services.orm.em.fork().execute(
    `insert into usage_ledger (id, workspace_id, key_id, user_id, kind, route, model_class, model, prompt_tokens, completion_tokens, total_tokens, questions, from_allowance, from_packs, created_at)
     values (?, ?, null, null, 'question', 'test', 'light', 'test', 0, 0, 0, ?, ?, 0, ?)`,
    [newId('use'), workspaceId, questions, questions, t.clock.now()],
  );
}

/** Rows of a workspace's questions ledger (a refusal must add none). */
export async function ledgerRows(t: TestApp, workspaceId: string): Promise<{ rows: number; totalTokens: number; questions: number }> {
  const [row] = await t.app.services.orm.em
    .fork()
    .execute<{ rows: unknown; tokens: unknown; questions: unknown }[]>(
      `select count(*) as rows, coalesce(sum(total_tokens), 0) as tokens, coalesce(sum(questions), 0) as questions from usage_ledger where workspace_id = ? and route <> 'test'`,
      [workspaceId],
    );
  return { rows: Number(row?.rows), totalTokens: Number(row?.tokens), questions: Number(row?.questions) };
}

/** Messages sent to the scripted model by one request, as role/content pairs. */
export function sentMessages(request: Record<string, unknown>): { role: string; content: string }[] {
  return (request.messages as { role: string; content: string | null }[]).map((m) => ({ role: m.role, content: m.content ?? '' }));
}

export const systemOf = (request: Record<string, unknown>): string => sentMessages(request)[0]?.content ?? '';

export type { TestApp, TestTenant };
