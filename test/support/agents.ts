import { api } from './api.js';
import type { TestApp } from './app.js';

/** The six persona fields SPEC requires, with defaults; `extra` overrides or adds fields. */
export const persona = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  role: 'Financial analyst',
  personality: 'calm and precise',
  mission: 'Answer finance questions',
  decisionStyle: 'data first',
  systemPrompt: 'Always cite numbers.',
  ...extra,
});

/** Creates an agent through the REST API and returns its id (throws unless 201). */
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
