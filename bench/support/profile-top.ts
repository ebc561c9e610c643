/**
 * Summarises a V8 .cpuprofile (from `node --cpu-prof` or bench/chat-turn-cpu.ts's PROFILE): self time by
 * function and by package or source folder, and inclusive time of the functions of src/ and rest/.
 *
 *   npx tsx bench/support/profile-top.ts /tmp/turn.cpuprofile [rows]
 *
 * SKIP_S=N leaves out the profile's first N seconds (a server's start and warm-up), END_S=M what follows
 * its M-th second (a server's shutdown); idle samples are counted apart and left out of the shares.
 */
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

const [file, rowsArg] = process.argv.slice(2);
const rows = Number(rowsArg ?? 30);
const profile = JSON.parse(readFileSync(file!, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const skipUs = Number(process.env.SKIP_S ?? 0) * 1e6;
const endUs = Number(process.env.END_S ?? Infinity) * 1e6;
const self = new Map<number, number>();
let elapsed = 0;
let idle = 0;
profile.samples.forEach((id, i) => {
  const dt = profile.timeDeltas[i] ?? 0;
  elapsed += dt;
  if (elapsed < skipUs || elapsed > endUs) return;
  if (byId.get(id)!.callFrame.functionName === '(idle)') idle += dt;
  else self.set(id, (self.get(id) ?? 0) + dt);
});
const total = [...self.values()].reduce((a, b) => a + b, 0);

const where = (url: string): string => {
  if (!url) return '(native)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 13).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  if (url.startsWith('node:')) return url;
  const m = /\/(src\/modules\/[^/]+|src\/[^/]+|rest\/[^/]+|test\/support|bench)/.exec(url);
  return m ? m[1]! : url;
};
const short = (n: Node) => `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^.*\/(node_modules|src|rest|test)\//, '$1/')}:${n.callFrame.lineNumber + 1}`;

const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
const fnSelf = new Map<string, number>();
const placeSelf = new Map<string, number>();
const inclusive = new Map<string, number>();
for (const [id, t] of self) {
  const n = byId.get(id)!;
  add(fnSelf, short(n), t);
  add(placeSelf, where(n.callFrame.url) + (n.callFrame.url ? '' : ` ${n.callFrame.functionName}`), t);
  const seen = new Set<string>();
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
    const c = byId.get(cur)!;
    if (!/\/(src|rest)\//.test(c.callFrame.url) || c.callFrame.url.includes('node_modules')) continue;
    const k = short(c);
    if (!seen.has(k)) {
      seen.add(k);
      add(inclusive, k, t);
    }
  }
}
const pct = (v: number) => `${((100 * v) / total).toFixed(1).padStart(5)} %`;
const print = (title: string, m: Map<string, number>) => {
  process.stdout.write(`\n${title}\n`);
  for (const [k, v] of [...m].sort((a, b) => b[1] - a[1]).slice(0, rows)) process.stdout.write(`${pct(v)}  ${k}\n`);
};
process.stdout.write(`busy ${(total / 1000).toFixed(0)} ms, idle ${(idle / 1000).toFixed(0)} ms (after the first ${skipUs / 1e6} s)\n`);
print('self time by package or folder', placeSelf);
print('self time by function', fnSelf);
print('inclusive time, functions of src/ and rest/', inclusive);
