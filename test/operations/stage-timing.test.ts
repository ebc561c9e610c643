import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, postgresAvailable, type TestDatabase } from '../support/database.js';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server.js';
import { startServerProcess, type LogLine, type ServerProcess } from '../support/server-process.js';

/**
 * Stage timing (issue 28, docs/operations.md "Stage timing"): the real server process with
 * SVC_STAGE_TIMING=on (read once at start, so a process of its own). Each gateway call's `request finished`
 * line says how long it spent in each stage and when each ended, and /metrics counts the stages.
 */
const available = await postgresAvailable();
let proc: ServerProcess | undefined;
let model: ScriptedModelServer | undefined;
let db: TestDatabase | undefined;

afterAll(async () => {
  await proc?.kill();
  await model?.close();
  await db?.drop();
});

interface Stages {
  totalMs: number;
  spent: Record<string, number>;
  at: Record<string, number>;
}

const GATEWAY_STAGES = [
  'loop',
  'pipeline.authenticate',
  'key_lookup.queued',
  'key_lookup',
  'pipeline.authorize',
  'pipeline.admission',
  'pipeline.rate_limits',
  'rate_admission_write.queued',
  'rate_admission_write',
  'model.call',
  'answer_write.queued',
  'answer_write',
];

describe.runIf(available)('SVC_STAGE_TIMING=on', () => {
  it("reports each gateway call's stages in its request line and in /metrics", async () => {
    db = await createTestDatabase();
    model = await startScriptedModelServer();
    proc = await startServerProcess(
      {
        DATABASE_URL: db.url!,
        SVC_MODEL_BASE_URL: model.baseUrl,
        SVC_MODEL_API_KEY: 'scripted',
        SVC_MODEL: 'scripted-model',
        SVC_MODEL_CLASS: 'standard',
        SVC_BACKGROUND_JOBS: 'off',
        SVC_STAGE_TIMING: 'on',
      },
      { startTimeoutMs: 120_000 },
    );
    await expect.poll(() => proc!.firstKey, { timeout: 20_000 }).not.toBe('');
    const headers = { authorization: `Bearer ${proc.firstKey}`, 'content-type': 'application/json' };
    for (const stream of [false, true]) {
      const res = await fetch(`${proc.baseUrl}/v1/chat/completions`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ model: 'svc-auto', messages: [{ role: 'user', content: 'Hello?' }], stream }),
      });
      expect(res.status).toBe(200);
      await res.text();
    }

    const calls = (): LogLine[] => proc!.logs.filter((l) => l.msg === 'request finished' && l.route === '/v1/chat/completions');
    await expect.poll(() => calls().length).toBe(2);
    for (const [i, line] of calls().entries()) {
      // The first call looks its key up; the second is made from that lookup, confirmed by its admission
      // (docs/performance.md, "The key lookup folded into the admission").
      const expected = i === 0 ? GATEWAY_STAGES : GATEWAY_STAGES.filter((s) => !s.startsWith('key_lookup'));
      const stages = line.stages as Stages;
      expect(Object.keys(stages.spent).sort()).toEqual([...expected].sort());
      for (const stage of expected) {
        expect(stages.spent[stage]).toBeGreaterThanOrEqual(0);
        expect(stages.at[stage]).toBeLessThanOrEqual(stages.totalMs);
      }
      // In the order a call goes through them: key, authorization, admission, then the certificate and ledger
      // write. The model call may run beside the admission (docs/gateway.md, "The model call beside its
      // admission": the second call's key was granted moments ago), so it is checked apart: it starts once the
      // call is authorized and ends before the answer's write, like the admission.
      const order = ['key_lookup', 'pipeline.authenticate', 'pipeline.authorize', 'rate_admission_write', 'pipeline.admission', 'answer_write'].filter((s) =>
        expected.includes(s),
      );
      const ends = order.map((s) => stages.at[s]!);
      expect(ends).toEqual([...ends].sort((a, b) => a - b));
      const modelStart = stages.at['model.call']! - stages.spent['model.call']!;
      // Figures are rounded to 0.01 ms in the line.
      expect(modelStart).toBeGreaterThanOrEqual(stages.at['pipeline.authorize']! - 0.02);
      expect(stages.at['model.call']).toBeLessThanOrEqual(stages.at['answer_write']!);
      if (i === 0) {
        // A key's first call in a process waits for its admission before the model is asked.
        expect(modelStart).toBeGreaterThanOrEqual(stages.at['pipeline.admission']! - 0.02);
      }
      expect(stages.spent['model.call']).toBeGreaterThan(0);
    }

    const text = await (await fetch(`${proc.baseUrl}/metrics`)).text();
    for (const stage of ['rate_admission_write.queued', 'model.call', 'answer_write']) {
      expect(text).toContain(`svc_request_stage_seconds_count{route="/v1/chat/completions",stage="${stage}"} 2`);
    }
    expect(text).toContain('svc_request_stage_seconds_count{route="/v1/chat/completions",stage="key_lookup"} 1');
  });
});
