/**
 * A model server on loopback that answers from a script: OpenAI `POST /v1/chat/completions` and
 * Anthropic `POST /v1/messages`, plain and streamed. Each request takes the next queued step, else
 * the default step, else echoes `Scripted answer to: <last user message>`. Every parsed body is
 * kept in `requests`, in arrival order, exactly as sent (so `tools`, `tool_choice` and the other
 * fields can be checked in the provider's own wire form).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedStep {
  content?: string;
  toolCalls?: { name: string; arguments: string | Record<string, unknown> }[];
  /** Reported usage; `null` sends none. Default: characters / 4. */
  usage?: { prompt: number; completion: number } | null;
  /** Answer with this HTTP error status instead. */
  status?: number;
  /** Answer only once this settles: the test decides when the model is done thinking (no timer). */
  until?: Promise<unknown>;
  /** Stream pieces (their concatenation is the content). */
  chunks?: string[];
  /** Never finish: no response at all, or for a stream the pieces and then silence. */
  hang?: boolean;
  finishReason?: 'stop' | 'length';
}

export interface ScriptedModelServer {
  /** OpenAI-style root, ending with `/v1`. */
  baseUrl: string;
  /** Anthropic-style root (the SDK appends `/v1/messages`). */
  anthropicBaseUrl: string;
  requests: Record<string, unknown>[];
  /** Requests whose client closed the connection before their answer was sent whole (an aborted model call). */
  readonly abandoned: number;
  enqueue(...steps: ScriptedStep[]): void;
  setDefault(step: ScriptedStep | undefined): void;
  close(): Promise<void>;
}

type Body = Record<string, unknown>;

interface Answer {
  id: number;
  model: string;
  content: string;
  pieces: string[];
  toolCalls: { id: string; name: string; arguments: string }[];
  usage: { prompt: number; completion: number } | null;
  finish: 'stop' | 'length' | 'tool_calls';
  hang: boolean;
}

/** `delayMs`: a fixed latency for every answer, for benchmarks (tests hold an answer with a step's `until`). */
export async function startScriptedModelServer(options: { delayMs?: number } = {}): Promise<ScriptedModelServer> {
  const queue: ScriptedStep[] = [];
  const requests: Body[] = [];
  let defaultStep: ScriptedStep | undefined;
  let counter = 0;
  let abandoned = 0;

  const server = createServer((req, res) => {
    void handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: { message: String(err) } });
      else res.end();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '').split('?')[0];
    const dialect = path === '/v1/chat/completions' ? 'openai' : path === '/v1/messages' ? 'anthropic' : undefined;
    if (req.method !== 'POST' || !dialect) return sendJson(res, 404, { error: { message: `No route ${req.method} ${req.url}` } });
    const body = await readJson(req);
    requests.push(body);
    res.on('close', () => {
      if (!res.writableFinished) abandoned++;
    });
    const step = queue.shift() ?? defaultStep ?? {};
    if (step.until) await step.until;
    const delay = options.delayMs ?? 0;
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    if (step.status) return sendError(res, dialect, step.status);
    if (step.hang && body.stream !== true) return;
    const answer = answerOf(step, body, dialect, ++counter);
    if (dialect === 'openai') return body.stream === true ? streamOpenAI(res, answer, body) : sendJson(res, 200, openAIBody(answer));
    return body.stream === true ? streamAnthropic(res, answer) : sendJson(res, 200, anthropicBody(answer));
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    anthropicBaseUrl: `http://127.0.0.1:${port}`,
    requests,
    get abandoned() {
      return abandoned;
    },
    enqueue: (...steps) => void queue.push(...steps),
    setDefault: (step) => void (defaultStep = step),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function answerOf(step: ScriptedStep, body: Body, dialect: 'openai' | 'anthropic', id: number): Answer {
  const toolCalls = (step.toolCalls ?? []).map((c, i) => ({
    id: dialect === 'openai' ? `call_${id}_${i}` : `toolu_${id}_${i}`,
    name: c.name,
    arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments),
  }));
  const fallback = toolCalls.length > 0 ? '' : `Scripted answer to: ${lastUserText(body)}`;
  const content = step.content ?? step.chunks?.join('') ?? fallback;
  const completionChars = content.length + toolCalls.reduce((n, c) => n + c.name.length + c.arguments.length, 0);
  const usage =
    step.usage === undefined
      ? { prompt: Math.ceil(promptChars(body) / 4), completion: Math.max(1, Math.ceil(completionChars / 4)) }
      : step.usage;
  return {
    id,
    model: typeof body.model === 'string' ? body.model : 'scripted',
    content,
    pieces: step.chunks ?? (content.match(/\s*\S+/g) ?? []),
    toolCalls,
    usage,
    finish: toolCalls.length > 0 ? 'tool_calls' : (step.finishReason ?? 'stop'),
    hang: step.hang ?? false,
  };
}

// ---- OpenAI dialect ----

function openAIBody(a: Answer): Body {
  const message: Body = { role: 'assistant', content: a.content || (a.toolCalls.length ? null : ''), refusal: null };
  if (a.toolCalls.length) {
    message.tool_calls = a.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } }));
  }
  return {
    id: `chatcmpl-scripted-${a.id}`,
    object: 'chat.completion',
    created: 1_700_000_000,
    model: a.model,
    choices: [{ index: 0, message, finish_reason: a.finish, logprobs: null }],
    ...(a.usage ? { usage: openAIUsage(a.usage) } : {}),
  };
}

function streamOpenAI(res: ServerResponse, a: Answer, body: Body): void {
  openSse(res);
  const chunk = (choices: unknown[], extra: Body = {}) =>
    res.write(
      `data: ${JSON.stringify({ id: `chatcmpl-scripted-${a.id}`, object: 'chat.completion.chunk', created: 1_700_000_000, model: a.model, choices, ...extra })}\n\n`,
    );
  const delta = (d: Body, finish: string | null = null) => chunk([{ index: 0, delta: d, finish_reason: finish, logprobs: null }]);
  delta({ role: 'assistant', content: '' });
  for (const piece of a.pieces) delta({ content: piece });
  if (a.hang) return;
  a.toolCalls.forEach((c, index) => {
    delta({ tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.name, arguments: '' } }] });
    for (const part of halves(c.arguments)) delta({ tool_calls: [{ index, function: { arguments: part } }] });
  });
  delta({}, a.finish);
  const options = body.stream_options as { include_usage?: boolean } | undefined;
  if (options?.include_usage && a.usage) chunk([], { usage: openAIUsage(a.usage) });
  res.end('data: [DONE]\n\n');
}

function openAIUsage(u: { prompt: number; completion: number }): Body {
  return { prompt_tokens: u.prompt, completion_tokens: u.completion, total_tokens: u.prompt + u.completion };
}

// ---- Anthropic dialect ----

function anthropicBody(a: Answer): Body {
  const content: Body[] = [];
  if (a.content || a.toolCalls.length === 0) content.push({ type: 'text', text: a.content, citations: null });
  for (const c of a.toolCalls) content.push({ type: 'tool_use', id: c.id, name: c.name, input: JSON.parse(c.arguments || '{}') });
  return {
    id: `msg_scripted_${a.id}`,
    type: 'message',
    role: 'assistant',
    model: a.model,
    content,
    stop_reason: anthropicStop(a),
    stop_sequence: null,
    usage: anthropicUsage(a.usage ?? { prompt: 0, completion: 0 }),
  };
}

function streamAnthropic(res: ServerResponse, a: Answer): void {
  openSse(res);
  const event = (type: string, data: Body) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  const usage = a.usage ?? { prompt: 0, completion: 0 };
  event('message_start', {
    message: { ...anthropicBody(a), content: [], stop_reason: null, usage: anthropicUsage({ prompt: usage.prompt, completion: 1 }) },
  });
  let index = 0;
  if (a.pieces.length > 0 || a.toolCalls.length === 0) {
    event('content_block_start', { index, content_block: { type: 'text', text: '', citations: null } });
    for (const text of a.pieces) event('content_block_delta', { index, delta: { type: 'text_delta', text } });
    if (a.hang) return;
    event('content_block_stop', { index });
    index++;
  }
  if (a.hang) return;
  for (const c of a.toolCalls) {
    event('content_block_start', { index, content_block: { type: 'tool_use', id: c.id, name: c.name, input: {} } });
    for (const partial_json of halves(c.arguments)) event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json } });
    event('content_block_stop', { index });
    index++;
  }
  event('message_delta', {
    delta: { stop_reason: anthropicStop(a), stop_sequence: null },
    usage: { input_tokens: usage.prompt, output_tokens: usage.completion },
  });
  event('message_stop', {});
  res.end();
}

function anthropicStop(a: Answer): string {
  return a.finish === 'tool_calls' ? 'tool_use' : a.finish === 'length' ? 'max_tokens' : 'end_turn';
}

function anthropicUsage(u: { prompt: number; completion: number }): Body {
  return { input_tokens: u.prompt, output_tokens: u.completion, cache_creation_input_tokens: null, cache_read_input_tokens: null };
}

// ---- shared ----

function sendError(res: ServerResponse, dialect: 'openai' | 'anthropic', status: number): void {
  const message = `Scripted failure ${status}`;
  sendJson(
    res,
    status,
    dialect === 'openai'
      ? { error: { message, type: 'server_error', code: null, param: null } }
      : { type: 'error', error: { type: 'api_error', message } },
  );
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function openSse(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  res.flushHeaders();
}

async function readJson(req: IncomingMessage): Promise<Body> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  const text = Buffer.concat(parts).toString('utf8');
  return text ? (JSON.parse(text) as Body) : {};
}

/** Text of a message's content in either dialect: a string, or text parts / tool results. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: { type?: string; text?: unknown; content?: unknown }) =>
      part.type === 'text' && typeof part.text === 'string' ? part.text : part.type === 'tool_result' ? textOf(part.content) : '',
    )
    .join('');
}

/** The last user message that carries text (an Anthropic tool-result turn is skipped). */
function lastUserText(body: Body): string {
  const messages = Array.isArray(body.messages) ? (body.messages as { role?: string; content?: unknown }[]) : [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role !== 'user') continue;
    const texts = Array.isArray(m.content)
      ? (m.content as { type?: string; text?: string }[]).filter((p) => p.type === 'text').map((p) => p.text ?? '').join('')
      : textOf(m.content);
    if (texts) return texts;
  }
  return '';
}

function promptChars(body: Body): number {
  const messages = Array.isArray(body.messages) ? (body.messages as { content?: unknown }[]) : [];
  return textOf(body.system).length + messages.reduce((n, m) => n + textOf(m.content).length, 0);
}

function halves(text: string): string[] {
  if (text.length < 2) return [text];
  const mid = Math.ceil(text.length / 2);
  return [text.slice(0, mid), text.slice(mid)];
}
