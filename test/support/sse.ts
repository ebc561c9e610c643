import type { ChatStreamEvent } from '../../src/modules/chat/chat-events.js';
import type { TestApp } from './app.js';
import { assertDocumented } from './openapi-validation.js';

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
  await assertDocumented(t.baseUrl, 'POST', path, res, () => (text ? JSON.parse(text) : undefined));
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

/** One SSE frame: its `event:` name ('' when none) and its `data:` parsed as JSON ('[DONE]' kept as is). */
export interface SseFrame {
  event: string;
  data: any;
}

/** One frame's `event:` and `data:` lines. */
export function parseFrame(frame: string): SseFrame {
  const event = /^event: (.*)$/m.exec(frame)?.[1] ?? '';
  const data = /^data: (.*)$/m.exec(frame)?.[1];
  return { event, data: data === undefined ? undefined : data === '[DONE]' ? data : JSON.parse(data) };
}

/** The frames of a whole SSE body (OpenAI, Anthropic or native), in order. */
export function sseEvents(text: string): SseFrame[] {
  return text
    .split('\n\n')
    .filter(Boolean)
    .map(parseFrame);
}

/** Reads an SSE response incrementally: `frames` (raw, comments left out) grows as they arrive; `done` resolves at the end of the body. */
export function readSse(res: Response) {
  const frames: string[] = [];
  const done = (async () => {
    let buffer = '';
    const decoder = new TextDecoder();
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      const parts = buffer.split('\n\n');
      buffer = parts.pop() ?? '';
      frames.push(...parts.filter((p) => p.trim() && !p.startsWith(':')));
    }
  })();
  return { frames, done };
}

/** The parsed `data:` of one raw frame. */
export const dataOf = (frame: string) => parseFrame(frame).data;
