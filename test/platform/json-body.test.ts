import { once } from 'node:events';
import { request as httpRequest, type Server } from 'node:http';
import { createConnection, type AddressInfo } from 'node:net';
import express, { Router, type ErrorRequestHandler, type RequestHandler } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { directRoutes, directTable, type TableRoute } from '../../rest/direct-routes.js';
import { jsonBody, limitBytes } from '../../rest/json-body.js';
import { sendJson } from '../../rest/route.js';

/** What a reader made of a request: the body it set, or the error it passed on (status and body-parser's type). */
const report: ErrorRequestHandler = (err, _req, res, _next) => {
  res.status(299).json({ error: { status: err.status, type: err.type } });
};
const echo: RequestHandler = (req, res) => {
  res.json({ hasBody: 'body' in req && req.body !== undefined, body: req.body as unknown });
};

function appWith(reader: RequestHandler): express.Express {
  const app = express();
  app.use(reader);
  app.use(report);
  app.post('/echo', echo);
  return app;
}

async function listen(app: express.Express): Promise<{ server: Server; port: number }> {
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, port: (server.address() as AddressInfo).port };
}

/** A raw request (exact headers and bytes, the body written in `parts`), its status and body. */
function send(port: number, headers: Record<string, string>, parts: Buffer[], path = '/echo', method = 'POST'): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    for (const p of parts) req.write(p);
    req.end();
  });
}

describe('the JSON body reader (rest/json-body.ts)', () => {
  const LIMIT = '2kb';
  let plain: { server: Server; port: number };
  let bodyParser: { server: Server; port: number };

  beforeAll(async () => {
    plain = await listen(appWith(jsonBody(LIMIT)));
    bodyParser = await listen(appWith(express.json({ limit: LIMIT, strict: false })));
  });
  afterAll(() => {
    plain.server.close();
    bodyParser.server.close();
  });

  it('reads limits as body-parser does', () => {
    expect(limitBytes('1mb')).toBe(1024 * 1024);
    expect(limitBytes('2kb')).toBe(2048);
    expect(limitBytes('1.5KB')).toBe(1536);
    expect(limitBytes('100')).toBe(100);
    expect(limitBytes('lots')).toBeNull();
  });

  const json = (text: string | Buffer) => (typeof text === 'string' ? Buffer.from(text, 'utf8') : text);
  const cases: [string, Record<string, string>, Buffer[]][] = [
    ['an object', {}, [json('{"model":"m","messages":[{"role":"user","content":"héllo 😀"}]}')]],
    ['an object in several writes, a character split between them', {}, [json('{"a":"'), Buffer.from([0xf0, 0x9f]), Buffer.from([0x98, 0x80]), json('"}')]],
    ['an empty body', {}, []],
    ['a byte-order mark first', {}, [Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), json('{"a":1}')])]],
    ['malformed JSON', {}, [json('{"a":')]],
    ['a scalar', {}, [json('42')]],
    ['invalid UTF-8', {}, [Buffer.concat([json('{"a":"'), Buffer.from([0xed, 0xa0, 0x80, 0xc3]), json('"}')])]],
    ['a body over the limit', {}, [json(`{"a":"${'x'.repeat(3000)}"}`)]],
    ['a charset parameter', { 'content-type': 'application/json; charset=utf-8' }, [json('{"a":1}')]],
    ['a charset that is not UTF', { 'content-type': 'application/json; charset=latin1' }, [json('{"a":1}')]],
    ['another JSON media type', { 'content-type': 'application/vnd.api+json' }, [json('{"a":1}')]],
    ['a text body', { 'content-type': 'text/plain' }, [json('{"a":1}')]],
    ['an unknown content encoding', { 'content-encoding': 'snappy' }, [json('{"a":1}')]],
  ];

  for (const [name, headers, parts] of cases) {
    it(`answers as express.json for ${name}`, async () => {
      const length = parts.reduce((n, p) => n + p.length, 0);
      const sent = { 'content-type': 'application/json', 'content-length': String(length), ...headers };
      const [ours, theirs] = await Promise.all([send(plain.port, sent, parts), send(bodyParser.port, sent, parts)]);
      expect(ours).toEqual(theirs);
    });
  }

  it('answers as express.json for a chunked body (no content-length)', async () => {
    const sent = { 'content-type': 'application/json', 'transfer-encoding': 'chunked' };
    const parts = [json('{"a":'), json('[1,2]}')];
    const [ours, theirs] = await Promise.all([send(plain.port, sent, parts), send(bodyParser.port, sent, parts)]);
    expect(ours).toEqual(theirs);
    expect(JSON.parse(ours.body)).toEqual({ hasBody: true, body: { a: [1, 2] } });
  });

  it('answers as express.json for random bytes', async () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const alphabet = Buffer.from('{}[]",:\\u0aA1 .-eE\ttrue', 'latin1');
    for (let i = 0; i < 150; i++) {
      const n = Math.floor(random() * 24);
      const body = Buffer.alloc(n);
      for (let j = 0; j < n; j++) body[j] = random() < 0.7 ? alphabet[Math.floor(random() * alphabet.length)]! : Math.floor(random() * 256);
      const sent = { 'content-type': 'application/json', 'content-length': String(n) };
      const [ours, theirs] = await Promise.all([send(plain.port, sent, [body]), send(bodyParser.port, sent, [body])]);
      expect(ours, body.toString('hex')).toEqual(theirs);
    }
  });
});

describe('routes answered directly (rest/direct-routes.ts)', () => {
  let server: Server;
  let port: number;
  /** Requests that walked the layers between the direct dispatch and the routers. */
  const walked: string[] = [];

  /** A route mounted on `router` as `register` mounts it, for the table (answered or not). */
  function route(router: Router, method: 'get' | 'post', path: string, answered: boolean, name = 'router'): TableRoute {
    const mounted = router.route(path);
    const handle = async (req: express.Request, res: express.Response) => {
      res.json({ by: name, route: (req.route as { path: string }).path, params: { ...req.params }, body: req.body as unknown });
    };
    mounted[method](handle);
    return { method: method.toUpperCase(), path, route: mounted, handle, answered };
  }

  beforeAll(async () => {
    // Walked first, never answered directly: its route shadows the same path of the answered router.
    const earlier = Router();
    const router = Router();
    const table = [
      route(earlier, 'post', '/v1/things/:id/blocked', false, 'earlier'),
      route(router, 'post', '/v1/things', true),
      route(router, 'get', '/v1/things', true),
      route(router, 'post', '/v1/things/chat', true),
      route(router, 'post', '/v1/things/:id/chat', true),
      route(router, 'post', '/v1/things/:id/blocked', true),
    ];
    const read = jsonBody('1kb');
    const bodyErrors: ErrorRequestHandler = (err, _req, res, _next) => res.status(400).json({ refused: (err as { type?: string }).type });
    const objectOnly: RequestHandler = (req, res, next) => (Array.isArray(req.body) ? res.status(400).json({ refused: 'array' }) : next());
    const app = express();
    app.use(directRoutes(directTable(table), [read, bodyErrors, objectOnly]));
    app.use((req, _res, next) => {
      walked.push(`${req.method} ${req.path}`);
      next();
    });
    app.use(read);
    app.use(bodyErrors);
    app.use(objectOnly);
    app.use(earlier);
    app.use(router);
    app.use((err: { status?: number }, _req: express.Request, res: express.Response, _next: express.NextFunction) => res.status(err.status ?? 500).json({ error: 'walked' }));
    server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => server.close());

  const post = (path: string, text: string) =>
    send(port, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) }, [Buffer.from(text)], path);

  it('answers an exact path without walking the layers, and another spelling through them, alike', async () => {
    walked.length = 0;
    const direct = await post('/v1/things', '{"a":1}');
    expect(walked).toEqual([]);
    const walkedThrough = await post('/v1/things/', '{"a":1}');
    expect(walked).toEqual(['POST /v1/things/']);
    expect(direct).toEqual(walkedThrough);
    expect(JSON.parse(direct.body)).toEqual({ by: 'router', route: '/v1/things', params: {}, body: { a: 1 } });
  });

  it('answers a path with a parameter without walking the layers, with the params and route express sets', async () => {
    walked.length = 0;
    const direct = await post('/v1/things/a.b;c/chat', '{"a":1}');
    expect(walked).toEqual([]);
    expect(JSON.parse(direct.body)).toEqual({ by: 'router', route: '/v1/things/:id/chat', params: { id: 'a.b;c' }, body: { a: 1 } });
    // The exact path mounted before the parameter's route is the one met first, as in the walk.
    expect(JSON.parse((await post('/v1/things/chat', '{}')).body)).toMatchObject({ route: '/v1/things/chat', params: {} });
    expect(JSON.parse((await post('/v1/things/chat/chat', '{}')).body)).toMatchObject({ route: '/v1/things/:id/chat', params: { id: 'chat' } });
    expect(walked).toEqual([]);
  });

  it('leaves to the layers another spelling, a trailing slash and an encoded parameter, answered alike', async () => {
    walked.length = 0;
    const direct = await post('/v1/things/x/chat', '{"a":1}');
    for (const path of ['/v1/things/x/CHAT', '/V1/things/x/chat', '/v1/things/x/chat/']) expect(await post(path, '{"a":1}')).toEqual(direct);
    expect(JSON.parse((await post('/v1/things/a%2Fb/chat', '{}')).body)).toMatchObject({ params: { id: 'a/b' } });
    expect(await post('/v1/things/%E0/chat', '{}')).toEqual({ status: 400, body: '{"error":"walked"}' });
    expect(walked).toEqual(['POST /v1/things/x/CHAT', 'POST /V1/things/x/chat', 'POST /v1/things/x/chat/', 'POST /v1/things/a%2Fb/chat', 'POST /v1/things/%E0/chat']);
  });

  it('leaves to the layers a path an unanswered route walked before meets first', async () => {
    walked.length = 0;
    expect(JSON.parse((await post('/v1/things/7/blocked', '{}')).body)).toMatchObject({ by: 'earlier', params: { id: '7' } });
    expect(walked).toEqual(['POST /v1/things/7/blocked']);
  });

  it('refuses a body with the same layers', async () => {
    walked.length = 0;
    expect(await post('/v1/things', '{"a":')).toEqual({ status: 400, body: '{"refused":"entity.parse.failed"}' });
    expect(await post('/v1/things', '[1]')).toEqual({ status: 400, body: '{"refused":"array"}' });
    expect(await post('/v1/things/7/chat', '[1]')).toEqual({ status: 400, body: '{"refused":"array"}' });
    expect(walked).toEqual([]);
  });

  it('leaves other methods and unknown paths to the layers', async () => {
    walked.length = 0;
    await send(port, {}, [], '/v1/things', 'HEAD');
    await post('/v1/things/7', '{}');
    expect(walked).toEqual(['HEAD /v1/things', 'POST /v1/things/7']);
  });
});

describe('JSON replies written directly (rest/route.ts, sendJson)', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    const app = express();
    app.disable('x-powered-by');
    app.set('etag', false);
    const body = { id: 'chatcmpl-1', text: 'héllo 😀 "quoted" \u2028', n: [1, 2.5, null], long: 'x'.repeat(1200) };
    app.all('/direct/:status', (req, res) => {
      res.setHeader('x-svc-proof', 'prf_1');
      const status = Number(req.params.status);
      if (!sendJson(res, status, body)) res.setHeader('x-fell-back', 'yes').status(status).json(body);
    });
    app.all('/express/:status', (req, res) => {
      res.setHeader('x-svc-proof', 'prf_1');
      res.status(Number(req.params.status)).json(body);
    });
    server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => server.close());

  /** The response's head (without its Date line) and body, as bytes on the wire. */
  const raw = (method: string, path: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = createConnection(port, '127.0.0.1', () => socket.end(`${method} ${path} HTTP/1.1\r\nHost: x\r\nIf-None-Match: *\r\nConnection: close\r\n\r\n`));
      const chunks: Buffer[] = [];
      socket.on('data', (c: Buffer) => chunks.push(c));
      socket.on('end', () => resolve(Buffer.concat(chunks).toString('latin1').replace(/\r\nDate: [^\r]*/, '')));
      socket.on('error', reject);
    });

  it('writes what res.json writes', async () => {
    for (const status of [200, 201, 400]) {
      const [ours, theirs] = [await raw('POST', `/direct/${status}`), await raw('POST', `/express/${status}`)];
      expect(ours).toBe(theirs);
      expect(ours).toContain('Content-Type: application/json; charset=utf-8');
    }
  });

  it('leaves to res.json what it could answer otherwise (GET, HEAD, 204)', async () => {
    expect(await raw('GET', '/direct/200')).toContain('x-fell-back: yes');
    expect(await raw('GET', '/express/200')).toMatch(/^HTTP\/1.1 304/);
    expect(await raw('HEAD', '/direct/200')).toContain('x-fell-back: yes');
    expect(await raw('POST', '/direct/204')).toContain('x-fell-back: yes');
  });
});
