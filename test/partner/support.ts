import { setPartner } from '../../src/modules/partner/partner.service.js';
import { api } from '../support/api.js';
import { startTestApp, type TestApp, type TestTenant } from '../support/app.js';
import { startSmtpServer, type LoopbackSmtp } from '../support/smtp-server.js';

/** The app with a loopback SMTP server (invitations, budget mails) and an integrator with a `partner` key. */
export interface PartnerApp {
  t: TestApp;
  smtp: LoopbackSmtp;
  /** The integrator workspace, its first user and unrestricted key. */
  integrator: TestTenant;
  /** A key of the integrator holding only the `partner` scope. */
  partnerKey: string;
  /** An HTTP client with the integrator's partner key. */
  partner: ReturnType<typeof api>;
  /** Makes another workspace an integrator (as the CLI does). */
  makeIntegrator(opts?: { sandbox?: boolean; name?: string }): Promise<{ tenant: TestTenant; key: string }>;
  /** A client of the main integrator, and a restricted key of it (scopes default: agents). */
  client(name?: string, scopes?: string[]): Promise<{ id: string; key: string; keyId: string }>;
  close(): Promise<void>;
}

export async function startPartnerApp(opts: { env?: Record<string, string>; sandbox?: boolean } = {}): Promise<PartnerApp> {
  const smtp = await startSmtpServer();
  const t = await startTestApp({ env: { SVC_SMTP_URL: smtp.url, ...opts.env } });
  const makeIntegrator = async (o: { sandbox?: boolean; name?: string } = {}) => {
    const tenant = await t.tenant({ name: o.name ?? 'Integrator', plan: 'cabinet', seats: 5 });
    await setPartner({ em: t.app.services.orm.em.fork(), clock: t.clock }, tenant.workspaceId, { sandbox: o.sandbox ?? false, graceDays: 7 });
    const key = await t.key(tenant, { scopes: ['partner'] });
    return { tenant, key };
  };
  const main = await makeIntegrator({ sandbox: opts.sandbox });
  const partner = api(t.baseUrl, main.key);
  return {
    t,
    smtp,
    integrator: main.tenant,
    partnerKey: main.key,
    partner,
    makeIntegrator,
    async client(name = 'Client', scopes = ['agents']) {
      const created = await partner.post('/partner/clients', { name });
      if (created.status !== 201) throw new Error(`client creation failed: ${created.text}`);
      const key = await partner.post(`/partner/clients/${created.body.client.id}/keys`, { scopes });
      if (key.status !== 201) throw new Error(`client key creation failed: ${key.text}`);
      return { id: created.body.client.id, key: key.body.key.secret, keyId: key.body.key.id };
    },
    async close() {
      await t.close();
      await smtp.close();
    },
  };
}
