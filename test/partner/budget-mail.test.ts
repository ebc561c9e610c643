import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api.js';
import { mailText } from '../support/smtp-server.js';
import { startPartnerApp, type PartnerApp } from './support.js';

let p: PartnerApp;

beforeAll(async () => {
  p = await startPartnerApp();
});
afterAll(() => p?.close());

describe('key budget alert by mail', () => {
  it("mails the key's owner once when the key passes 80% of its monthlyQuestionLimit", async () => {
    const client = await p.partner.post('/partner/clients', { name: 'Mailed client', adminEmail: 'owner@client.example' });
    const key = await p.partner.post(`/partner/clients/${client.body.client.id}/keys`, { name: 'shop', scopes: ['engine'], monthlyQuestionLimit: 5 });
    const gateway = api(p.t.baseUrl, key.body.key.secret);
    const ask = () => gateway.post('/v1/chat/completions', { model: 'svc-auto', messages: [{ role: 'user', content: 'Say hello.' }] });
    // The invitation is the first mail; the alert comes at 4 of 5 questions (80%), once.
    await expect.poll(() => p.smtp.to('owner@client.example').length).toBe(1);
    for (let i = 0; i < 3; i++) expect((await ask()).status).toBe(200);
    expect(p.smtp.to('owner@client.example')).toHaveLength(1);
    expect((await ask()).status).toBe(200);
    await expect.poll(() => p.smtp.to('owner@client.example').length).toBe(2);
    const alert = mailText(p.smtp.to('owner@client.example')[1]);
    expect(alert).toContain('used 4 of its 5 questions for 2026-11');
    expect(alert).toContain('"shop"');
    expect(alert).toContain('Mailed client');
    expect((await ask()).status).toBe(200);
    expect((await ask()).body.code).toBe('API_KEY_BUDGET_EXCEEDED');
    // Still one alert this month, stored as before.
    expect(p.smtp.to('owner@client.example')).toHaveLength(2);
  });
});
