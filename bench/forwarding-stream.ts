/**
 * The forwarding path's reading of a streamed answer, in process (issue 28, tenth round): the canned model's
 * streamed body (bench/support/canned-model.ts: 8 chunks, the usage chunk, [DONE]) read from one piece, decoded,
 * and its deltas handed on, the way the OpenAI-compatible provider's forwarding path reads it now
 * (`SseSplitter`, one array of chunks per piece, a loop over them) and the way it did before (the rest of the
 * text cut after every event, lines split, one async generator step per event), alternated in rounds. No
 * network, no service: only the part this round changed, as CPU microseconds per answer.
 *
 *   ROUNDS=6 N=20000 npx tsx bench/forwarding-stream.ts
 */
import { loadavg } from 'node:os';
import { SseSplitter } from '../src/modules/models/forwarding-wire.js';

const ROUNDS = Number(process.env.ROUNDS ?? 6);
const N = Number(process.env.N ?? 20_000);
const MODEL = 'canned-model';
const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-canned', object: 'chat.completion.chunk', created: 1_700_000_000, model: MODEL, choices, ...extra })}\n\n`;
const BODY =
  chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]) +
  ['The', ' answer', ' is', ' forty', '-two', '.'].map((p) => chunk([{ index: 0, delta: { content: p }, finish_reason: null }])).join('') +
  chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]) +
  chunk([], { usage: { prompt_tokens: 24, completion_tokens: 6, total_tokens: 30 } }) +
  'data: [DONE]\n\n';

type Chunk = { model?: string; choices: { delta?: { content?: string }; finish_reason?: string | null }[] };
const decode = (data: string): Chunk | undefined => (data === '[DONE]' ? undefined : (JSON.parse(data) as Chunk));
async function* pieces(): AsyncGenerator<string> {
  yield BODY;
}

/** Before: one generator step per event, the rest cut after each. */
async function* oldWire(): AsyncGenerator<Chunk> {
  let pending = '';
  for await (const piece of pieces()) {
    pending += piece;
    for (;;) {
      const lf = pending.indexOf('\n\n');
      const crlf = pending.indexOf('\r\n\r\n');
      const end = lf < 0 ? crlf : crlf < 0 ? lf : Math.min(lf, crlf);
      if (end < 0) break;
      const event = pending.slice(0, end);
      pending = pending.slice(end).replace(/^(\r?\n){1,2}/, '');
      let data: string | undefined;
      for (const line of event.split(/\r?\n/)) if (line.startsWith('data:')) data = line.slice(line[5] === ' ' ? 6 : 5);
      if (data === undefined) continue;
      const decoded = decode(data);
      if (decoded !== undefined) yield decoded;
    }
  }
}

/** Now: one array per piece. */
async function* newWire(): AsyncGenerator<Chunk[]> {
  const events = new SseSplitter();
  for await (const piece of pieces()) {
    const batch: Chunk[] = [];
    for (const { data } of events.push(piece)) {
      const decoded = decode(data);
      if (decoded !== undefined) batch.push(decoded);
    }
    if (batch.length > 0) yield batch;
  }
}

/** The provider's loop (streamVia) over either, yielding the deltas as the metered call reads them. */
async function* provider(source: AsyncIterable<Chunk | Chunk[]>): AsyncGenerator<string> {
  for await (const piece of source) {
    for (const c of Array.isArray(piece) ? piece : [piece]) {
      const text = c.choices[0]?.delta?.content;
      if (text) yield text;
    }
  }
}

async function answer(source: () => AsyncIterable<Chunk | Chunk[]>): Promise<number> {
  let length = 0;
  for await (const text of provider(source())) length += text.length;
  return length;
}

async function measure(source: () => AsyncIterable<Chunk | Chunk[]>): Promise<number> {
  const start = process.cpuUsage();
  for (let i = 0; i < N; i++) if ((await answer(source)) !== 24) throw new Error('wrong answer');
  const used = process.cpuUsage(start);
  return (used.user + used.system) / N;
}

const results: Record<'before' | 'after', number[]> = { before: [], after: [] };
process.stdout.write(`load average ${loadavg()[0]!.toFixed(1)} before; ${ROUNDS} rounds of ${N} answers each way, alternated\n`);
await measure(oldWire);
await measure(newWire);
for (let r = 0; r < ROUNDS; r++) {
  const order = r % 2 === 0 ? (['before', 'after'] as const) : (['after', 'before'] as const);
  for (const which of order) results[which].push(await measure(which === 'before' ? oldWire : newWire));
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
for (const which of ['before', 'after'] as const) {
  process.stdout.write(`${which}: ${results[which].map((x) => x.toFixed(1)).join(' / ')} µs per answer, median ${median(results[which]).toFixed(1)}\n`);
}
process.stdout.write(`after / before (medians): ${(median(results.after) / median(results.before)).toFixed(2)}; load average ${loadavg()[0]!.toFixed(1)} after\n`);
