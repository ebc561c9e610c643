import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api.js';
import { startTestApp, type TestApp, type TestTenant } from '../support/app.js';

const passages = [{ source: 'memo', content: 'The audit fee is 4 500 EUR. The audit was not completed in 2023.' }];
const REPORT = `id createdAt certificateId counts { supported contradicted unverifiable } claims { text verdict rule evidence { source quote start end score } }`;

let t: TestApp;
let ws: TestTenant;

beforeAll(async () => {
  t = await startTestApp();
  ws = await t.tenant({ plan: 'cabinet' });
});
afterAll(() => t.close());

describe('GraphQL: verify, reports, register and summary', () => {
  it('runs the same use cases as REST', async () => {
    const client = api(t.baseUrl, ws.key);
    const made = await client.graphql(`mutation($input: VerifyInput!) { verify(input: $input) { ${REPORT} } }`, {
      input: { text: 'The audit fee is 5 000 EUR. The audit fee is 4 500 EUR.', passages },
    });
    expect(made.errors).toBeUndefined();
    const report = made.data.verify;
    expect(report.claims.map((c: { verdict: string }) => c.verdict)).toEqual(['contradicted', 'supported']);
    expect(report.claims[1].evidence[0]).toEqual({ source: 'memo', quote: 'The audit fee is 4 500 EUR.', start: 0, end: 27, score: 1 });
    const rest = await client.get(`/v1/verify/${report.id}`);
    expect(rest.body.report).toMatchObject({ id: report.id, counts: report.counts, certificateId: report.certificateId });

    const list = await client.graphql(`{ verifyReports(limit: 10) { nextCursor reports { id } } verifyReport(id: "${report.id}") { id } }`);
    expect(list.data).toEqual({ verifyReports: { nextCursor: null, reports: [{ id: report.id }] }, verifyReport: { id: report.id } });

    const register = await client.graphql(
      `{ registre(kind: "verify") { nextCursor certificates { id kind seq hash prevHash signature route } }
         registreSummary { counts { month kind count } chain { length valid firstHash lastHash firstBroken { seq } } } }`,
    );
    expect(register.errors).toBeUndefined();
    expect(register.data.registre.certificates).toEqual([expect.objectContaining({ id: report.certificateId, kind: 'verify', seq: 1, route: 'POST /v1/verify' })]);
    expect(register.data.registreSummary).toEqual({
      counts: [{ month: '2026-11', kind: 'verify', count: 1 }],
      chain: { length: 1, valid: true, firstHash: register.data.registre.certificates[0].hash, lastHash: register.data.registre.certificates[0].hash, firstBroken: null },
    });
    expect((await client.get('/v1/verify/usage')).body.controls).toBe(1);
  });

  it('refuses with the same codes: text_required, scope_denied, read_only_key, PLAN_UPGRADE_REQUIRED', async () => {
    const empty = await api(t.baseUrl, ws.key).graphql(`mutation { verify(input: { text: "", passages: [{ source: "a", content: "b" }] }) { id } }`);
    expect(empty.errors?.[0]?.extensions).toMatchObject({ code: 'text_required' });
    const ambiguous = await api(t.baseUrl, ws.key).graphql(
      `mutation { verify(input: { text: "A claim about fees.", passages: [{ source: "a", content: "b" }], collectionIds: ["c"] }) { id } }`,
    );
    expect(ambiguous.errors?.[0]?.extensions).toMatchObject({ code: 'ambiguous_scope' });
    const knowledgeOnly = await t.key(ws, { scopes: ['knowledge'] });
    const denied = await api(t.baseUrl, knowledgeOnly).graphql(`{ verifyReports { nextCursor } }`);
    expect(denied.errors?.[0]?.extensions).toMatchObject({ code: 'scope_denied' });
    const readOnly = await t.key(ws, { scopes: ['proof'], readonly: true });
    const refused = await api(t.baseUrl, readOnly).graphql(`mutation { verify(input: { text: "The fee is 5 EUR.", passages: [{ source: "a", content: "b" }] }) { id } }`);
    expect(refused.errors?.[0]?.extensions).toMatchObject({ code: 'read_only_key' });
    const pro = await t.tenant({ plan: 'pro' });
    const upgrade = await api(t.baseUrl, pro.key).graphql(`{ registreSummary { chain { length } } }`);
    expect(upgrade.errors?.[0]?.extensions).toMatchObject({ code: 'PLAN_UPGRADE_REQUIRED', feature: 'proofJournal', requiredPlan: 'cabinet' });
  });
});
