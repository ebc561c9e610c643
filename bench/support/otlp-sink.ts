/**
 * A loopback OTLP/HTTP receiver for bench/gateway-side-by-side.ts with `BENCH_TRACING=1`: it takes the
 * traced service's exports (`POST /v1/traces`, protobuf or JSON), answers each with an empty success
 * (an empty protobuf message, or `{}`), and counts requests and bytes without decoding them, so the
 * tracing cost measured is the service's, not a collector's. Run in a process of its own:
 *
 *   PORT=0 npx tsx bench/support/otlp-sink.ts   (prints {"port":N}; GET /stats answers {"exports":N,"bytes":N})
 */
import { createServer } from 'node:http';
import { serveForBench } from './serve.js';

let exports = 0;
let bytes = 0;

const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/stats') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ exports, bytes }));
    return;
  }
  req.on('data', (c: Buffer) => (bytes += c.length));
  req.on('end', () => {
    exports++;
    const json = String(req.headers['content-type'] ?? '').startsWith('application/json');
    res.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' }).end(json ? '{}' : '');
  });
});

serveForBench(server);
