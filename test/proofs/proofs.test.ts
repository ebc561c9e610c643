import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api.js';
import { type TestTenant } from '../support/app.js';
import { anthropicClient, canonical, openaiClient, sha256, startGateway, verifyOffline, type GatewayHarness } from '../support/gateway.js';

let h: GatewayHarness;
let a: TestTenant;
let b: TestTenant;

beforeAll(async () => {
  h = await startGateway({ SVC_RATE_GATEWAY: '1000' });
  a = await h.t.tenant();
  b = await h.t.tenant();
});
afterAll(() => h.close());

const sql = (query: string, params: unknown[] = []) => h.t.app.services.orm.em.getConnection().execute(query, params);

async function publicKey(key = a.key) {
  const res = await api(h.t.baseUrl, key).get('/v1/gateway/public-key');
  expect(res.status).toBe(200);
  return res.body;
}

describe('x-svc-proof certificates', () => {
  it('reads back a certificate and verifies it offline with node:crypto and the public key only', async () => {
    h.models.enqueue({ content: 'Signed answer.', usage: { prompt: 4, completion: 2 } });
    const request = { model: 'svc-auto', messages: [{ role: 'user' as const, content: 'Sign this' }] };
    const { response } = await openaiClient(h.t, a.key).chat.completions.create(request).withResponse();
    const id = response.headers.get('x-svc-proof')!;
    const res = await api(h.t.baseUrl, a.key).get(`/v1/proofs/${id}`);
    expect(res.status).toBe(200);
    const cert = res.body;
    expect(cert).toMatchObject({
      version: 1,
      id,
      workspaceId: a.workspaceId,
      route: 'POST /v1/chat/completions',
      modelAddress: 'svc-auto',
      model: 'scripted-standard',
      conversationId: null,
      usage: { promptTokens: 4, completionTokens: 2, totalTokens: 6 },
      algorithm: 'Ed25519',
    });
    expect(new Date(cert.createdAt).toISOString()).toBe(h.t.clock.now().toISOString());
    expect(cert.requestHash).toBe(sha256(canonical(request)));
    expect(cert.answerHash).toBe(sha256('Signed answer.'));
    const key = await publicKey();
    expect(cert.keyId).toBe(key.keyId);
    expect(verifyOffline(cert, key)).toEqual({ hashOk: true, pemOk: true, jwkOk: true });
    // A changed field no longer verifies offline either.
    expect(verifyOffline({ ...cert, answerHash: sha256('Other answer.') }, key)).toMatchObject({ hashOk: false, pemOk: false, jwkOk: false });

    const verdict = await api(h.t.baseUrl, a.key).get(`/v1/proofs/${id}/verify`);
    expect(verdict.status).toBe(200);
    expect(verdict.body).toEqual({ id, valid: true, checks: { hash: true, signature: true, chain: true }, failedCheck: null, reason: null });
  });

  it('certifies Anthropic calls (streamed too) with the tool calls in the answer hash', async () => {
    h.models.enqueue({ toolCalls: [{ name: 'lookup', arguments: { term: 'x' } }] });
    const { data, response } = await anthropicClient(h.t, a.key)
      .messages.create({
        model: 'svc-auto',
        max_tokens: 50,
        tools: [{ name: 'lookup', input_schema: { type: 'object' } }],
        messages: [{ role: 'user', content: 'Look x up' }],
      })
      .withResponse();
    const cert = (await api(h.t.baseUrl, a.key).get(`/v1/proofs/${response.headers.get('x-svc-proof')}`)).body;
    expect(cert.route).toBe('POST /v1/messages');
    const use = data.content.find((c) => c.type === 'tool_use')!;
    expect(cert.answerHash).toBe(sha256(canonical({ content: '', toolCalls: [{ id: use.id, name: 'lookup', arguments: '{"term":"x"}' }] })));

    h.models.enqueue({ chunks: ['streamed ', 'answer'] });
    const stream = anthropicClient(h.t, a.key).messages.stream({ model: 'svc-auto', max_tokens: 50, messages: [{ role: 'user', content: 'Stream' }] });
    await stream.finalMessage();
    const { response: streamed } = await stream.withResponse();
    const streamedCert = (await api(h.t.baseUrl, a.key).get(`/v1/proofs/${streamed.headers.get('x-svc-proof')}`)).body;
    expect(streamedCert.answerHash).toBe(sha256('streamed answer'));
    expect(verifyOffline(streamedCert, await publicKey())).toEqual({ hashOk: true, pemOk: true, jwkOk: true });
  });

  it('404 proof_not_found in the OpenAI shape for an unknown id or another workspace', async () => {
    const { response } = await openaiClient(h.t, a.key).chat.completions.create({ model: 'svc-auto', messages: [{ role: 'user', content: 'x' }] }).withResponse();
    const id = response.headers.get('x-svc-proof')!;
    for (const [key, path] of [
      [a.key, '/v1/proofs/prf_unknown'],
      [a.key, '/v1/proofs/prf_unknown/verify'],
      [b.key, `/v1/proofs/${id}`],
      [b.key, `/v1/proofs/${id}/verify`],
      // An id with a NUL character names nothing, on both databases (the embedded one broke on it: a 500).
      [a.key, '/v1/proofs/prf_a%00b'],
      [a.key, '/v1/proofs/prf_a%00b/verify'],
    ]) {
      const res = await api(h.t.baseUrl, key).get(path);
      expect(res.status, path).toBe(404);
      expect(res.body).toEqual({ error: { message: expect.any(String), type: 'invalid_request_error', code: 'proof_not_found', param: null } });
    }
  });

  it('proof routes need the engine scope (native 403) and are readable by a read-only key', async () => {
    const { response } = await openaiClient(h.t, a.key).chat.completions.create({ model: 'svc-auto', messages: [{ role: 'user', content: 'x' }] }).withResponse();
    const id = response.headers.get('x-svc-proof')!;
    const webhooks = await h.t.key(a, { scopes: ['webhooks'] });
    const denied = await api(h.t.baseUrl, webhooks).get(`/v1/proofs/${id}`);
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe('scope_denied');
    const readOnly = await h.t.key(a, { scopes: ['engine', 'readonly'] });
    expect((await api(h.t.baseUrl, readOnly).get(`/v1/proofs/${id}/verify`)).body.valid).toBe(true);
    expect((await api(h.t.baseUrl, readOnly).get('/v1/gateway/public-key')).status).toBe(200);
  });

  it('tampering with a stored certificate makes verify fail and name the check', async () => {
    const tenant = await h.t.tenant();
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const { response } = await openaiClient(h.t, tenant.key)
        .chat.completions.create({ model: 'svc-auto', messages: [{ role: 'user', content: `q${i}` }] })
        .withResponse();
      ids.push(response.headers.get('x-svc-proof')!);
    }
    const verify = async (id: string) => (await api(h.t.baseUrl, tenant.key).get(`/v1/proofs/${id}/verify`)).body;
    for (const id of ids) expect((await verify(id)).valid).toBe(true);

    await sql('update proof_certificate set answer_hash = ? where id = ?', [sha256('forged'), ids[0]]);
    expect(await verify(ids[0])).toMatchObject({
      valid: false,
      failedCheck: 'hash',
      checks: { hash: false, signature: false, chain: true },
      reason: expect.stringMatching(/hash/),
    });

    // Content and hash rewritten together: only the signature can tell.
    const [row] = await sql('select * from proof_certificate where id = ?', [ids[1]]);
    const cert = (await api(h.t.baseUrl, tenant.key).get(`/v1/proofs/${ids[1]}`)).body;
    const { hash: _h, signature: _s, ...body } = { ...cert, model: 'forged-model' };
    await sql('update proof_certificate set model = ?, hash = ? where id = ?', ['forged-model', sha256(canonical(body)), row.id]);
    expect(await verify(ids[1])).toMatchObject({ valid: false, failedCheck: 'signature', checks: { hash: true, signature: false } });
    // The next certificate no longer links to the rewritten one.
    expect(await verify(ids[2])).toMatchObject({ valid: false, failedCheck: 'chain', checks: { hash: true, signature: true, chain: false } });

    await sql('update proof_certificate set signature = ? where id = ?', [Buffer.alloc(64).toString('base64url'), ids[3]]);
    expect(await verify(ids[3])).toMatchObject({ valid: false, failedCheck: 'signature', reason: expect.stringMatching(/signature/i) });

    await sql('delete from proof_certificate where id = ?', [ids[2]]);
    expect(await verify(ids[3])).toMatchObject({ checks: { chain: false }, reason: expect.any(String) });
  });

  it('50 concurrent calls over both dialects leave one unbroken chain', async () => {
    const tenant = await h.t.tenant();
    const oa = openaiClient(h.t, tenant.key);
    const an = anthropicClient(h.t, tenant.key);
    const calls = Array.from({ length: 50 }, (_, i) =>
      i % 2 === 0
        ? oa.chat.completions.create({ model: 'svc-auto', messages: [{ role: 'user', content: `c${i}` }], stream: i % 4 === 0 }).withResponse()
        : an.messages.create({ model: 'svc-auto', max_tokens: 20, messages: [{ role: 'user', content: `c${i}` }] }).withResponse(),
    );
    const responses = await Promise.all(calls);
    for (const { data } of responses) {
      if (Symbol.asyncIterator in Object(data)) for await (const _ of data as AsyncIterable<unknown>) void _;
    }
    const ids = new Set(responses.map((r) => r.response.headers.get('x-svc-proof')));
    expect(ids.size).toBe(50);
    const rows = (await sql('select id, seq, hash, prev_hash from proof_certificate where workspace_id = ? order by seq', [tenant.workspaceId])) as {
      id: string;
      seq: number;
      hash: string;
      prev_hash: string | null;
    }[];
    expect(rows.map((r) => r.seq)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(new Set(rows.map((r) => r.id))).toEqual(ids);
    expect(rows[0].prev_hash).toBeNull();
    for (let i = 1; i < rows.length; i++) expect(rows[i].prev_hash).toBe(rows[i - 1].hash);
    const verdicts = await Promise.all(rows.map((r) => api(h.t.baseUrl, tenant.key).get(`/v1/proofs/${r.id}/verify`)));
    expect(verdicts.every((v) => v.body.valid === true)).toBe(true);
  });
});

describe('GET /v1/gateway/public-key and the signing key', () => {
  it('returns the key as PEM and JWK with its thumbprint id, never the private key', async () => {
    const res = await api(h.t.baseUrl, a.key).get('/v1/gateway/public-key');
    expect(res.body).toMatchObject({
      algorithm: 'Ed25519',
      keyId: expect.any(String),
      pem: expect.stringContaining('BEGIN PUBLIC KEY'),
      jwk: { kty: 'OKP', crv: 'Ed25519', x: expect.any(String), alg: 'EdDSA', use: 'sig' },
      canonicalization: expect.stringContaining('8785'),
    });
    expect(res.body.jwk.kid).toBe(res.body.keyId);
    expect(res.body.keys.map((k: { keyId: string }) => k.keyId)).toContain(res.body.keyId);
    expect(res.text).not.toMatch(/PRIVATE|"d":/);
  });
});
