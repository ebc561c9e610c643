import type { ChatStreamEvent } from '../../src/modules/chat/chat-events.js';
import type { TestApp } from './app.js';

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
