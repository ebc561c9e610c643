import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errors } from '../../src/errors/index.js';
import { startTestApp, type TestApp } from '../support/app.js';

/** Requests Node's HTTP parser refuses are answered in the native JSON error shape (src/app/create-app.ts). */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

/** Sends raw bytes on a fresh connection and reads everything until the server closes it. */
async function raw(bytes: string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const { port } = new URL(t.baseUrl);
  const socket = connect(Number(port), '127.0.0.1');
  let received = '';
  socket.setEncoding('latin1').on('data', (chunk: string) => (received += chunk));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('error', () => {}); // the server may close while we still write
  socket.write(bytes, 'latin1');
  await closed;
  const [head = '', body = ''] = received.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

const request = (lines: string[]) => ['GET /health HTTP/1.1', 'Host: svc', ...lines].join('\r\n') + '\r\n\r\n';

describe('malformed HTTP requests get JSON errors', () => {
  const cases: [string, string, number, string][] = [
    ['a 64 KB header', request([`X-Big: ${'a'.repeat(64 * 1024)}`]), 431, 'headers_too_large'],
    ['a URL over 16 KB', `GET /${'a'.repeat(17 * 1024)} HTTP/1.1\r\nHost: svc\r\n\r\n`, 431, 'headers_too_large'],
    ['1000 headers', request(Array.from({ length: 1000 }, (_, i) => `X-Header-${i}: ${'v'.repeat(20)}`)), 431, 'headers_too_large'],
    ['NUL in a header value', request(['X-Bad: a\u0000b']), 400, 'malformed_request'],
    ['CR in a header value', request(['X-Bad: a\rb']), 400, 'malformed_request'],
    ['a request line that is not HTTP', 'HELLO THERE\r\n\r\n', 400, 'malformed_request'],
  ];

  it.each(cases)('%s: %i with code %s, JSON body and Connection: close', async (_name, bytes, status, code) => {
    const res = await raw(bytes);
    expect(res.status).toBe(status);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers.connection).toBe('close');
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.body));
    const expected = status === 431 ? errors.headersTooLarge() : errors.malformedRequest();
    expect(JSON.parse(res.body)).toEqual({ error: expected.message, code });
  });

  it('leaves well-formed requests alone', async () => {
    const res = await raw(request(['Connection: close']));
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ status: 'ok' });
  });
});

describe('catalogue entries of the transport errors', () => {
  it('have their status and code', () => {
    expect(errors.headersTooLarge()).toMatchObject({ status: 431, code: 'headers_too_large' });
    expect(errors.malformedRequest()).toMatchObject({ status: 400, code: 'malformed_request' });
    expect(errors.requestTimeout()).toMatchObject({ status: 408, code: 'request_timeout' });
    expect(errors.serverRestarting()).toMatchObject({ status: 503, code: 'server_restarting' });
  });
});
