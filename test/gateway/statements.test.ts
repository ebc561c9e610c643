/**
 * How many SQL statements a gateway call sends (issue 28: "fewer sequential steps"), counted as
 * test/chat/statements.test.ts counts a chat turn's: every statement the ORM driver's pg clients send to the
 * test's database, by wrapping pg.Client#query in this process (the app runs in it). The counts asserted are
 * today's, so a change that adds a round trip fails here and the change that merges them lowers them. The
 * metering statements read the ledger's running totals, not the ledger (test/usage/ledger-totals.test.ts).
 * On the embedded database (no PostgreSQL) there is no pg client to count: the file is skipped.
 */
import { createRequire } from 'node:module';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestTenant } from '../support/app.js';
import { postgresAvailable } from '../support/database.js';
import { openaiClient, startGatewayWithTenant, type GatewayHarness } from '../support/gateway.js';

const onPostgres = await postgresAvailable();

let h: GatewayHarness;
let a: TestTenant;
let database = '';
const seen: string[] = [];
// the ORM's driver has its own copy of pg (node_modules/@mikro-orm/postgresql/node_modules/pg)
const here = createRequire(import.meta.url);
const driverPg = createRequire(here.resolve('@mikro-orm/postgresql'))('pg') as typeof pg;
const original = driverPg.Client.prototype.query;

beforeAll(async () => {
  if (!onPostgres) return;
  ({ h, a } = await startGatewayWithTenant({ SVC_RATE_GATEWAY: '1000' }));
  database = new URL(h.t.db.url!).pathname.slice(1);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  (driverPg.Client.prototype as any).query = function (this: pg.Client, ...args: unknown[]) {
    if (this.database === database) {
      const first = args[0] as string | { text?: string };
      seen.push(typeof first === 'string' ? first : (first?.text ?? '?'));
    }
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return (original as any).apply(this, args);
  };
});
afterAll(async () => {
  driverPg.Client.prototype.query = original;
  if (onPostgres) await h.close();
});

/** The statements of one call: from its start to the certificate's append, which may follow the response. */
async function counted<T>(fn: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
  seen.length = 0;
  const result = await fn();
  const deadline = Date.now() + 20_000;
  while (!seen.some((q) => /proof_certificate/.test(q) && /insert/i.test(q)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  await new Promise((r) => setTimeout(r, 300));
  return { result, statements: [...seen] };
}

describe.skipIf(!onPostgres)('statements per gateway call (plain, one connection)', () => {
  it('a plain call sends the counted statements', async () => {
    await openaiClient(h.t, a.key).chat.completions.create({ model: 'svc-auto', messages: [{ role: 'user', content: 'warm up' }] });
    h.models.enqueue({ content: 'Forty-two.', usage: { prompt: 12, completion: 3 } });
    const call = await counted(() => openaiClient(h.t, a.key).chat.completions.create({ model: 'svc-auto', messages: [{ role: 'user', content: 'Answer?' }] }));
    expect(call.result.choices[0].message.content).toBe('Forty-two.');
    // key lookup, svc_rate_admit (the gateway's route ceiling counted with the admission); the certificate's
    // append with svc_record in the same statement (was 5: the rate count and svc_admit were two; then 4:
    // svc_record and the append were two)
    expect(call.statements.length, call.statements.join('\n')).toBe(3);
    expect(call.statements.filter((q) => /svc_rate_admit/.test(q))).toHaveLength(1);
    const [write] = call.statements.filter((q) => /svc_record/.test(q));
    expect(write).toMatch(/^with chain as \(insert into proof_certificate/);
  });
});
