/**
 * The load generator of bench/chat-turn.ts, run as a process of its own (never inside the server's):
 *
 *   node --import tsx bench/support/chat-load.ts '<spec JSON>'
 *
 * spec: { baseUrl, body, targets: [{ key, path }], clients, turns, own, stream, warmup, floor? }. Client c sends
 * `turns` turns one after another to `targets[own ? c + 1 : 0]` (plain, or streamed to `<path>/stream`),
 * after `warmup` turns to the first target. With `floor: { url, body }`, each client also calls the model server
 * directly once per turn (the same request the service sends it: a JSON chat completion, or a streamed one whose first
 * token is its first non-empty content delta), alternated A B B A with the turns (turn by turn with one client, in
 * phases with several), so the service and the floor it is compared to are measured side by side by the same clients
 * in the same run.
 * Prints one JSON line: { samples: [{ totalMs, firstTokenMs? }], floor: [same], wallS }.
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
  floor?: { url: string; body: string };
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

/** The floor: the model server called directly with the request the service sends it. */
async function direct(floor: { url: string; body: string }): Promise<Sample> {
  const started = performance.now();
  const res = await fetch(floor.url, { method: 'POST', headers: { authorization: 'Bearer bench', 'content-type': 'application/json' }, body: floor.body });
  if (res.status !== 200 || !res.body) throw new Error(`model call failed: ${res.status}`);
  if (!spec.stream) {
    await res.text();
    return { totalMs: performance.now() - started };
  }
  const decoder = new TextDecoder();
  let text = '';
  let firstTokenMs: number | undefined;
  const reader = res.body.getReader();
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    text += decoder.decode(chunk.value, { stream: true });
    if (firstTokenMs === undefined && /"delta":\{"content":"[^"]/.test(text)) firstTokenMs = performance.now() - started;
  }
  if (!text.trimEnd().endsWith('data: [DONE]')) throw new Error('model stream ended without [DONE]');
  return { totalMs: performance.now() - started, firstTokenMs };
}

const turn = spec.stream ? streamed : plain;
for (let i = 0; i < spec.warmup; i++) {
  await turn(spec.targets[0]!);
  if (spec.floor) await direct(spec.floor);
}
const samples: Sample[] = [];
const floor: Sample[] = [];
const targetOf = (c: number) => spec.targets[spec.own ? c + 1 : 0]!;
/** Every client makes `n` calls one after another, all clients at once. */
const phase = (n: number, call: (c: number) => Promise<void>) =>
  Promise.all(Array.from({ length: spec.clients }, async (_, c) => {
    for (let i = 0; i < n; i++) await call(c);
  }));
const serviceTurn = async (c: number) => void samples.push(await turn(targetOf(c)));
const floorCall = async () => void floor.push(await direct(spec.floor!));
const started = performance.now();
if (!spec.floor) await phase(spec.turns, serviceTurn);
else if (spec.clients === 1) {
  // One client: the turn and the model call alternate A B B A, turn by turn.
  for (let i = 0; i < spec.turns; i++) {
    if (i % 4 === 0 || i % 4 === 3) {
      await serviceTurn(0);
      await floorCall();
    } else {
      await floorCall();
      await serviceTurn(0);
    }
  }
} else {
  // Several clients: in phases A B B A (all clients on the service, then all on the model, ...), so each phase
  // keeps the cell's concurrency on the one it measures.
  const half = Math.ceil(spec.turns / 2);
  await phase(half, serviceTurn);
  await phase(half, floorCall);
  await phase(spec.turns - half, floorCall);
  await phase(spec.turns - half, serviceTurn);
}
process.stdout.write(`${JSON.stringify({ samples, floor, wallS: (performance.now() - started) / 1000 })}\n`);
