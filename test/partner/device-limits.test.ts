/**
 * Device pairing's public routes are ways in with their own limits (issue 25, "Every way in is limited"):
 * `POST /partner/devices/code` and `/token` are counted per client address (the caller is the address,
 * an anonymous principal), each route apart, and the codes nobody confirmed are swept once expired.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sweepDeviceCodes } from '../../src/modules/partner/devices.service.js';
import { PartnerDevice } from '../../src/modules/partner/partner.entity.js';
import { api } from '../support/api.js';
import { startPartnerApp, type PartnerApp } from './support.js';

let p: PartnerApp;
let minute = 0;

beforeAll(async () => {
  p = await startPartnerApp({ env: { SVC_RATE_DEVICE_PAIRING: '3' } });
});
afterAll(() => p?.close());
// A fresh calendar minute for each test, 15 s into it: retry-after is 45 s.
beforeEach(() => p.t.clock.set(new Date(Date.UTC(2026, 10, 4, 8, (minute += 2), 15))));

const from = (ip: string) => api(p.t.baseUrl, undefined, { 'x-forwarded-for': ip });

describe('device pairing limits', () => {
  it('counts each route per address: the fourth call of a minute is refused, another address and the next minute pass', async () => {
    for (const [path, body] of [['/partner/devices/code', {}], ['/partner/devices/token', { deviceCode: 'dev_unknown' }]] as const) {
      const device = from('198.51.100.50');
      for (let i = 0; i < 3; i++) expect((await device.post(path, body)).status).not.toBe(429);
      const refused = await device.post(path, body);
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ message: expect.any(String), route: `POST ${path}`, limitPerMinute: 3 });
      expect(refused.headers.get('retry-after')).toBe('45');
      expect((await from('198.51.100.51').post(path, body)).status).not.toBe(429);
    }
    p.t.clock.advance(60_000);
    expect((await from('198.51.100.50').post('/partner/devices/code', {})).status).toBe(200);
  });

  it('a refused request stores nothing', async () => {
    const em = p.t.app.services.orm.em.fork();
    const before = await em.count(PartnerDevice, {});
    const device = from('198.51.100.60');
    for (let i = 0; i < 5; i++) await device.post('/partner/devices/code', {});
    expect(await em.count(PartnerDevice, {})).toBe(before + 3);
  });

  it('sweeps the codes nobody confirmed once expired; a confirmed code waiting for its install stays', async () => {
    const device = from('198.51.100.70');
    const lost = (await device.post('/partner/devices/code', { name: 'lost' })).body;
    const confirmed = (await device.post('/partner/devices/code', { name: 'kept' })).body;
    expect((await p.partner.post('/partner/devices/confirm', { userCode: confirmed.userCode })).status).toBe(200);
    const services = p.t.app.services;
    const em = () => services.orm.em.fork();
    const swept = await sweepDeviceCodes(services);
    expect(await em().count(PartnerDevice, { name: 'lost' })).toBe(1);
    p.t.clock.advance(10 * 60_000 + 1);
    expect(await sweepDeviceCodes(services)).toBeGreaterThanOrEqual(1 + swept);
    expect(await em().count(PartnerDevice, { name: 'lost' })).toBe(0);
    expect(await em().count(PartnerDevice, { name: 'kept' })).toBe(1);
    expect((await from('198.51.100.71').post('/partner/devices/token', { deviceCode: lost.deviceCode })).body.code).toBe('device_code_invalid');
    expect((await from('198.51.100.71').post('/partner/devices/token', { deviceCode: confirmed.deviceCode })).status).toBe(200);
  });
});
