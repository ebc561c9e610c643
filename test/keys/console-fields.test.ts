/** What the console's keys and webhooks screens read from the schema: the scope enum, the event names, a key's last use. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import { KNOWN_SCOPES } from '../../src/core/scopes.js';
import { WEBHOOK_EVENTS } from '../../src/modules/webhooks/events.js';
import { startTestApp, type TestApp, type TestTenant } from '../support/app.js';

let t: TestApp;
let tenant: TestTenant;

const gql = async (query: string) => {
  const res = await fetch(`${t.baseUrl}/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tenant.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
  });
  return (await res.json()) as { data?: Record<string, unknown>; errors?: { message: string }[] };
};

beforeAll(async () => {
  t = await startTestApp();
  tenant = await t.tenant();
});
afterAll(async () => {
  await t?.close();
});

describe('schema catalogue for the console', () => {
  it('lists every scope in the ApiKeyScope enum, each described in words', async () => {
    const body = await gql(`{ apiKeyScopes __type(name: "ApiKeyScope") { enumValues { name description } } }`);
    expect(body.errors).toBeUndefined();
    expect(body.data!.apiKeyScopes).toEqual([...KNOWN_SCOPES]);
    const values = (body.data!.__type as { enumValues: { name: string; description: string }[] }).enumValues;
    expect(values.map((v) => v.name).sort()).toEqual([...KNOWN_SCOPES].sort());
    for (const v of values) expect(v.description.length, v.name).toBeGreaterThan(10);
  });

  it('lists the webhook event names the service accepts (deprecated: webhookEvents is the one the console reads)', async () => {
    const body = await gql(`{ webhookEventNames }`);
    expect(body.data!.webhookEventNames).toEqual([...WEBHOOK_EVENTS]);
    const fields = await gql(`{ __type(name: "Query") { fields(includeDeprecated: true) { name isDeprecated deprecationReason } } }`);
    const byName = new Map((fields.data!.__type as { fields: { name: string; isDeprecated: boolean; deprecationReason: string | null }[] }).fields.map((f) => [f.name, f]));
    expect(byName.get('webhookEventNames')).toMatchObject({ isDeprecated: true, deprecationReason: expect.stringMatching(/^Use webhookEvents/) });
    expect(byName.get('webhookEvents')).toMatchObject({ isDeprecated: false, deprecationReason: null });
  });

  it("gives a key's last use from the ledger: null before any metered call, the newest entry's time after", async () => {
    const first = await gql(`{ apiKeys { id lastUsedAt } }`);
    const keys = first.data!.apiKeys as { id: string; lastUsedAt: string | null }[];
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.every((k) => k.lastUsedAt === null)).toBe(true);
    const keyId = keys[0].id;
    const em = t.app.services.orm.em.fork();
    for (const at of ['2026-11-20T10:00:00.000Z', '2026-11-21T09:30:00.000Z']) {
      await em.execute(
        `insert into usage_ledger (id, workspace_id, key_id, user_id, kind, route, model_class, model, prompt_tokens, completion_tokens, total_tokens, questions, from_allowance, from_packs, created_at)
         values (?, ?, ?, null, 'question', 'test', 'light', 'test', 0, 0, 0, 1, 1, 0, ?)`,
        [newId('use'), tenant.workspaceId, keyId, new Date(at)],
      );
    }
    const after = await gql(`{ apiKeys { id lastUsedAt } }`);
    const used = (after.data!.apiKeys as { id: string; lastUsedAt: string | null }[]).find((k) => k.id === keyId);
    expect(used?.lastUsedAt).toBe('2026-11-21T09:30:00.000Z');
  });
});
