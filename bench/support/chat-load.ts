/**
 * The load generator of bench/chat-turn.ts, run as a process of its own (never inside the server's):
 *
 *   node --import tsx bench/support/chat-load.ts '<spec JSON>'
 *
 * spec: { baseUrl, body, targets: [{ key, path }], clients, turns, own, stream, warmup }. Client c sends
 * `turns` turns one after another to `targets[own ? c + 1 : 0]` (plain, or streamed to `<path>/stream`),
 * after `warmup` turns to the first target. Prints one JSON line: { samples: [{ totalMs, firstTokenMs? }], wallS }.
 */
interface Target {
  key: string;
  path: string;
}
interface Spec {
  baseUrl: string;
  body: string;
  targets: Target[];
  clients: number;
  turns: number;
  own: boolean;
  stream: boolean;
  warmup: number;
}
interface Sample {
  totalMs: number;
  firstTokenMs?: number;
}

const spec = JSON.parse(process.argv[2] ?? '{}') as Spec;
const headersOf = (w: Target) => ({ authorization: `Bearer ${w.key}`, 'content-type': 'application/json' });

async function plain(w: Target): Promise<Sample> {
  const started = performance.now();
  const res = await fetch(spec.baseUrl + w.path, { method: 'POST', headers: headersOf(w), body: spec.body });
  await res.text();
  if (res.status !== 200) throw new Error(`plain turn failed: ${res.status}`);
  return { totalMs: performance.now() - started };
}

async function streamed(w: Target): Promise<Sample> {
  const started = performance.now();
  const res = await fetch(`${spec.baseUrl}${w.path}/stream`, { method: 'POST', headers: headersOf(w), body: spec.body });
  if (res.status !== 200 || !res.body) throw new Error(`stream failed: ${res.status}`);
  const decoder = new TextDecoder();
  let text = '';
  let firstTokenMs: number | undefined;
  const reader = res.body.getReader();
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    text += decoder.decode(chunk.value, { stream: true });
    if (firstTokenMs === undefined && text.includes('"type":"token"')) firstTokenMs = performance.now() - started;
  }
  if (!text.includes('"type":"done"')) throw new Error('stream ended without done');
  return { totalMs: performance.now() - started, firstTokenMs };
}

const turn = spec.stream ? streamed : plain;
for (let i = 0; i < spec.warmup; i++) await turn(spec.targets[0]!);
const samples: Sample[] = [];
const started = performance.now();
await Promise.all(
  Array.from({ length: spec.clients }, async (_, c) => {
    const target = spec.targets[spec.own ? c + 1 : 0]!;
    for (let i = 0; i < spec.turns; i++) samples.push(await turn(target));
  }),
);
process.stdout.write(`${JSON.stringify({ samples, wallS: (performance.now() - started) / 1000 })}\n`);
