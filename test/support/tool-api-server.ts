import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A loopback HTTP API for tool tests. Paths decide the answer:
 * `/echo/...` echoes the request as JSON; `/status/<n>` answers that status with a JSON body;
 * `/big/<bytes>` sends that many bytes of text; `/hang` never answers; `/redirect` answers 302;
 * `/text` answers plain text.
 */
export async function startApiServer() {
  const seen: SeenRequest[] = [];
  const hanging = new Set<ServerResponse>();
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const url = new URL(req.url ?? '/', 'http://api');
    const request: SeenRequest = {
      method: req.method ?? '',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: req.headers,
      body: Buffer.concat(chunks).toString('utf8'),
    };
    seen.push(request);
    const [, kind, arg] = url.pathname.split('/');
    switch (kind) {
      case 'status':
        res.writeHead(Number(arg), { 'content-type': 'application/json' }).end(JSON.stringify({ message: `status ${arg}` }));
        return;
      case 'big':
        res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(Number(arg)));
        return;
      case 'hang':
        hanging.add(res);
        res.on('close', () => hanging.delete(res));
        return;
      case 'redirect':
        res.writeHead(302, { location: 'http://127.0.0.1:1/elsewhere' }).end();
        return;
      case 'text':
        res.writeHead(200, { 'content-type': 'text/plain' }).end('plain answer');
        return;
      default:
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, method: request.method, path: request.path, query: request.query, body: request.body }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    base: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
