import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api.js';
import { startTestApp, type TestApp, type TestTenant } from '../support/app.js';
import { fixtures, MIME } from '../support/knowledge.js';

let t: TestApp;
let a: TestTenant;

beforeAll(async () => {
  t = await startTestApp();
  a = await t.tenant();
});
afterAll(() => t?.close());

/** Sends a form built by the test, so it can hold any number of fields and files. */
async function send(build: (form: FormData) => void) {
  const form = new FormData();
  build(form);
  const res = await fetch(`${t.baseUrl}/v1/knowledge-sources/upload`, { method: 'POST', headers: { authorization: `Bearer ${a.key}` }, body: form });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text), type: res.headers.get('content-type') };
}
const doc = () => new Blob([new Uint8Array(fixtures.text())], { type: MIME.text });
const sources = async () => (await api(t.baseUrl, a.key).get('/v1/knowledge-sources')).body;

describe('upload form limits: parts past a limit are refused with 400, never dropped silently', () => {
  it('ten fields pass; the eleventh is a 400 in the native shape and nothing is stored', async () => {
    const ok = await send((f) => {
      for (let i = 0; i < 9; i++) f.append(`extra${i}`, 'x');
      f.append('name', 'ten-fields.txt');
      f.append('file', doc(), 'a.txt');
    });
    expect(ok.status).toBe(202);
    expect(ok.body.source.name).toBe('ten-fields.txt');
    const before = JSON.stringify(await sources());
    const res = await send((f) => {
      for (let i = 0; i < 10; i++) f.append(`extra${i}`, 'x');
      f.append('name', 'eleven-fields.txt');
      f.append('file', doc(), 'b.txt');
    });
    expect(res.status).toBe(400);
    expect(res.type).toMatch(/^application\/json/);
    expect(res.body).toEqual({ error: 'Too many form fields: send at most 10' });
    expect(JSON.stringify(await sources())).toBe(before);
  });

  it('a second file part is a 400 naming file', async () => {
    const res = await send((f) => {
      f.append('file', doc(), 'a.txt');
      f.append('file', doc(), 'b.txt');
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Too many files: send at most 1 file part', field: 'file' });
  });
});
