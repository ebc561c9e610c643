/**
 * The webhook receiver of bench/webhooks-throughput.ts, in a process of its own (never inside the
 * service's): answers every POST 200 `ok` at once, notes when each (runId, path) arrived and how many TCP
 * connections were opened. Prints `{"port":N}` once listening; then answers JSON-line commands on stdin,
 * one JSON line on stdout each:
 *   {"cmd":"reset"}                              → {"ok":true}           forget arrivals and counters
 *   {"cmd":"wait","total":N,"timeoutMs":T}       → {"count","first","last","connections"} once N requests arrived
 *   {"cmd":"arrivals"}                           → {"arrivals":{"<runId>|<path>":t,...}}
 * Times are `performance.timeOrigin + performance.now()` (wall clock in ms, sub-millisecond), comparable
 * across processes of one machine.
 */
import { createServer } from 'node:http';
import { createInterface } from 'node:readline';

const now = () => performance.timeOrigin + performance.now();
let arrivals = new Map<string, number>();
let count = 0;
let connections = 0;
let first = 0;
let last = 0;
let waiter: { total: number; done: () => void } | undefined;

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const at = now();
    let runId = '';
    try {
      runId = String((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { runId?: string }).runId ?? '');
    } catch {
      /* not a bench body */
    }
    arrivals.set(`${runId}|${req.url}`, at);
    count += 1;
    if (count === 1) first = at;
    last = at;
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': 2 }).end('ok');
    if (waiter && count >= waiter.total) waiter.done();
  });
});
server.on('connection', () => (connections += 1));
server.keepAliveTimeout = 60_000;

const reply = (o: unknown) => process.stdout.write(JSON.stringify(o) + '\n');
createInterface({ input: process.stdin }).on('line', (line) => {
  const cmd = JSON.parse(line) as { cmd: string; total?: number; timeoutMs?: number };
  if (cmd.cmd === 'reset') {
    arrivals = new Map();
    count = 0;
    connections = 0;
    first = 0;
    last = 0;
    reply({ ok: true });
  } else if (cmd.cmd === 'wait') {
    const total = cmd.total ?? 0;
    const answer = () => {
      clearTimeout(timer);
      waiter = undefined;
      reply({ count, first, last, connections });
    };
    const timer = setTimeout(answer, cmd.timeoutMs ?? 120_000);
    waiter = { total, done: answer };
    if (count >= total) answer();
  } else if (cmd.cmd === 'arrivals') {
    reply({ arrivals: Object.fromEntries(arrivals) });
  }
});

server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address();
  reply({ port: typeof address === 'object' && address ? address.port : 0 });
});
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
