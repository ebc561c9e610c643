import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api.js';
import { startPartnerApp, type PartnerApp } from './support.js';

let p: PartnerApp;

beforeAll(async () => {
  p = await startPartnerApp();
});
afterAll(() => p?.close());

describe('device pairing', () => {
  it('pairs an install by a device code the integrator confirms; the install gets a read-only partner key once; unpairing revokes it', async () => {
    const device = api(p.t.baseUrl);
    const code = await device.post('/partner/devices/code', { name: 'Front desk PC' });
    expect(code.status).toBe(200);
    expect(code.body).toEqual({ deviceCode: expect.stringMatching(/^dev_/), userCode: expect.stringMatching(/^[A-Z2-9]{4}-[A-Z2-9]{4}$/), verificationPath: '/partner/devices/confirm', expiresIn: 600, interval: 5 });

    const pending = await device.post('/partner/devices/token', { deviceCode: code.body.deviceCode });
    expect(pending.status).toBe(400);
    expect(pending.body.code).toBe('authorization_pending');
    expect((await p.partner.get('/partner/devices')).body.devices).toEqual([]);

    const confirmed = await p.partner.post('/partner/devices/confirm', { userCode: code.body.userCode.toLowerCase() });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.device).toMatchObject({ name: 'Front desk PC', status: 'pending', pairedAt: p.t.clock.now().toISOString() });
    // The same code cannot pair another integrator.
    const other = await p.makeIntegrator({ name: 'Other' });
    expect((await api(p.t.baseUrl, other.key).post('/partner/devices/confirm', { userCode: code.body.userCode })).body.code).toBe('device_code_invalid');

    const token = await device.post('/partner/devices/token', { deviceCode: code.body.deviceCode });
    expect(token.status).toBe(200);
    expect(token.body.key).toMatchObject({ scopes: ['partner'], readonly: true, secret: expect.stringMatching(/^svc_/) });
    const installed = api(p.t.baseUrl, token.body.key.secret);
    expect((await installed.get('/partner/status')).body.partner.workspaceId).toBe(p.integrator.workspaceId);
    expect((await installed.post('/partner/clients', { name: 'No' })).body.code).toBe('read_only_key');
    // Once only.
    expect((await device.post('/partner/devices/token', { deviceCode: code.body.deviceCode })).body.code).toBe('device_code_invalid');

    const list = await p.partner.get('/partner/devices');
    expect(list.body.devices).toEqual([{ id: confirmed.body.device.id, name: 'Front desk PC', status: 'paired', createdAt: expect.any(String), pairedAt: expect.any(String), lastSeenAt: expect.any(String) }]);
    expect((await api(p.t.baseUrl, other.key).delete(`/partner/devices/${confirmed.body.device.id}`)).status).toBe(404);
    expect((await p.partner.delete(`/partner/devices/${confirmed.body.device.id}`)).status).toBe(204);
    expect((await installed.get('/partner/status')).status).toBe(401);
    expect((await p.partner.get('/partner/devices')).body.devices).toEqual([]);
    expect((await p.partner.delete(`/partner/devices/${confirmed.body.device.id}`)).status).toBe(404);
  });

  it('refuses expired, unknown and malformed codes', async () => {
    const device = api(p.t.baseUrl);
    const code = await device.post('/partner/devices/code', {});
    p.t.clock.advance(10 * 60 * 1000);
    expect((await p.partner.post('/partner/devices/confirm', { userCode: code.body.userCode })).body.code).toBe('device_code_invalid');
    expect((await device.post('/partner/devices/token', { deviceCode: code.body.deviceCode })).body.code).toBe('device_code_invalid');
    expect((await device.post('/partner/devices/token', { deviceCode: 'dev_unknown' })).body.code).toBe('device_code_invalid');
    for (const [path, body, field] of [
      ['/partner/devices/code', { name: 5 }, 'name'],
      ['/partner/devices/token', {}, 'deviceCode'],
      ['/partner/devices/token', { deviceCode: 7 }, 'deviceCode'],
    ] as const) {
      const res = await device.post(path, body);
      expect(res.status).toBe(400);
      expect(res.body.field).toBe(field);
    }
    for (const body of [{}, { userCode: '' }, { userCode: 12 }]) {
      const res = await p.partner.post('/partner/devices/confirm', body);
      expect(res.status).toBe(400);
      expect(res.body.field).toBe('userCode');
    }
  });
});
