/**
 * A bare pass-through for bench/gateway-side-by-side.ts, the floor of any gateway on this machine:
 * node:http reads the body, forwards it to the model with an undici keep-alive Pool and returns the
 * answer (a streamed answer is piped through as it comes). No key, no database. Run in a process of
 * its own:
 *
 *   UPSTREAM=http://127.0.0.1:N PORT=0 npx tsx bench/support/pass-through.ts   (prints {"port":N})
 */
import { createServer } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { Pool } from 'undici';
import { serveForBench } from './serve.js';

const upstream = process.env.UPSTREAM;
if (!upstream) throw new Error('UPSTREAM is required');
const pool = new Pool(upstream, { connections: 256, pipelining: 1, keepAliveTimeout: 60_000 });

const server = createServer((req, res) => {
  const parts: Buffer[] = [];
  req.on('data', (c: Buffer) => parts.push(c));
  req.on('end', () => {
    void (async () => {
      try {
        const answer = await pool.request({
          path: req.url ?? '/',
          method: 'POST',
          headers: { 'content-type': req.headers['content-type'] ?? 'application/json' },
          body: Buffer.concat(parts),
        });
        const type = String(answer.headers['content-type'] ?? 'application/json');
        if (type.startsWith('text/event-stream')) {
          res.writeHead(answer.statusCode, { 'content-type': type, 'cache-control': 'no-cache' });
          await pipeline(answer.body, res);
        } else {
          const buf = Buffer.from(await answer.body.arrayBuffer());
          res.writeHead(answer.statusCode, { 'content-type': type, 'content-length': buf.length });
          res.end(buf);
        }
      } catch (err) {
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: String(err) } }));
      }
    })();
  });
});
serveForBench(server, () => pool.close());
