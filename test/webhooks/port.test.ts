import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api.js';
import { startTestApp, type TestApp, type TestTenant } from '../support/app.js';

let cloud: TestApp;
let onprem: TestApp;
let c: TestTenant;
let o: TestTenant;

beforeAll(async () => {
  [cloud, onprem] = await Promise.all([startTestApp({ env: { SVC_DEPLOYMENT: 'cloud' } }), startTestApp()]);
  c = await cloud.tenant();
  o = await onprem.tenant();
});
afterAll(() => Promise.all([cloud?.close(), onprem?.close()]));

const PORT_ZERO = 'URL port 0 is not valid: it must be between 1 and 65535';

describe('outbound URLs: port 0 is refused with 400 naming the field (webhooks and workspace tools)', () => {
  it('POST and PUT /v1/webhooks refuse http://<public address>:0/, in cloud and on-prem', async () => {
    for (const [t, tenant, url] of [
      [cloud, c, 'http://93.184.215.14:0/hook'],
      [onprem, o, 'http://127.0.0.1:0/hook'],
      [onprem, o, 'http://[2606:2800:21f:cb07:6820:80da:af6b:8b2c]:0/'],
    ] as const) {
      const k = api(t.baseUrl, tenant.key);
      const res = await k.post('/v1/webhooks', { url, events: ['source.ingested'] });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: `Invalid webhook url: ${PORT_ZERO}`, field: 'url' });
    }
    const k = api(onprem.baseUrl, o.key);
    const ok = await k.post('/v1/webhooks', { url: 'http://127.0.0.1:65535/hook', events: ['source.ingested'] });
    expect(ok.status).toBe(201);
    const put = await k.put(`/v1/webhooks/${ok.body.webhook.id}`, { url: 'http://127.0.0.1:0/hook' });
    expect([put.status, put.body.field]).toEqual([400, 'url']);
  });

  it('POST /v1/tools refuses a urlTemplate on port 0', async () => {
    for (const [t, tenant, urlTemplate] of [
      [cloud, c, 'http://93.184.215.14:0/x'],
      [onprem, o, 'http://127.0.0.1:0/x'],
    ] as const) {
      const res = await api(t.baseUrl, tenant.key).post('/v1/tools', { name: 'port_zero', description: 'd', urlTemplate });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: `urlTemplate refused: ${PORT_ZERO}`, field: 'urlTemplate' });
    }
  });
});
