import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { Router } from 'express';
import { listen } from '../../src/app/create-app.js';
import type { ModelClass } from '../../src/modules/models/provider.js';
import { recordControl } from '../../src/modules/usage/controls.js';
import { assertCanConsume, assertDocumentRoom, recordConsumption } from '../../src/modules/usage/metering.service.js';
import { assignRequestId } from '../../rest/request-id.js';
import { mount, type RouteDef } from '../../rest/route.js';
import { newId } from '../../src/lib/ids.js';
import type { TestApp } from './app.js';

/**
 * Test-only routes over the real `mount()` and the real services of a running test app: they consume
 * questions the way chat and gateway routes do (check, "model", record), so the 402 shapes and the
 * route-level ceilings can be tested before those routes exist.
 */
export interface MeteringRoutes {
  baseUrl: string;
  close(): Promise<void>;
}

interface ConsumeBody {
  totalTokens?: number;
  modelClass?: ModelClass;
  required?: number;
}

export async function startMeteringRoutes(t: TestApp): Promise<MeteringRoutes> {
  const app = t.app.services;
  const router = Router();
  const consume = (dialect: 'native' | 'openai' | 'anthropic', feature: 'chat' | 'gateway'): RouteDef['handler'] =>
    async (ctx, req) => {
      const body = (req.body ?? {}) as ConsumeBody;
      // The route's `dialect` renders the refusal: the service throws one error whatever the wire.
      await assertCanConsume(ctx, { feature, required: body.required });
      const total = body.totalTokens ?? 100;
      const usage = { promptTokens: Math.floor(total / 2), completionTokens: total - Math.floor(total / 2), totalTokens: total };
      const { questions } = await recordConsumption(ctx, { route: req.path, modelClass: body.modelClass ?? 'light', usage, model: 'test-model' });
      return { status: 200, body: { questions } };
    };
  const def = (path: string, extra: Partial<RouteDef> & Pick<RouteDef, 'handler'>): RouteDef => ({
    method: 'post',
    path,
    summary: 'test-only',
    tag: 'test',
    scope: null,
    responses: {},
    ...extra,
  });
  mount(router, app, def('/test/native/chat', { handler: consume('native', 'chat') }));
  mount(router, app, def('/test/native/gateway', { handler: consume('native', 'gateway') }));
  mount(router, app, def('/test/openai/consume', { dialect: 'openai', handler: consume('openai', 'gateway') }));
  mount(router, app, def('/test/anthropic/consume', { dialect: 'anthropic', handler: consume('anthropic', 'gateway') }));
  mount(router, app, def('/test/document', {
    handler: async (ctx, req) => {
      const body = (req.body ?? {}) as { used: number; adding?: number };
      assertDocumentRoom(ctx, { used: body.used, adding: body.adding });
      return { status: 201, body: {} };
    },
  }));
  mount(router, app, def('/test/control', { scope: 'proof', handler: async (ctx) => (await recordControl(ctx, ctx.em, { route: 'POST /v1/verify', at: ctx.clock.now() }), { status: 201, body: {} }) }));
  mount(router, app, def('/test/gateway', { dialect: 'openai', rateLimit: 'gateway', handler: async () => ({ status: 200, body: { ok: true } }) }));
  mount(router, app, def('/test/gateway-2', { dialect: 'anthropic', rateLimit: 'gateway', handler: async () => ({ status: 200, body: { ok: true } }) }));
  mount(router, app, def('/test/agent-chat', { rateLimit: 'agentChat', handler: async () => ({ status: 200, body: { ok: true } }) }));
  mount(router, app, def('/test/upload', { rateLimit: 'upload', handler: async () => ({ status: 200, body: { ok: true } }) }));
  const http = express();
  http.use(assignRequestId(app)); // what the app does first: mount() logs on req.log
  http.use(express.json());
  http.use(router);
  const server: Server = await listen(http, 0, '127.0.0.1');
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Rows and questions of a workspace's ledger: the proof that a refusal consumed nothing. */
export async function ledgerOf(t: TestApp, workspaceId: string): Promise<{ rows: number; questions: number; fromPacks: number }> {
  const [row] = await t.app.services.orm.em
    .fork()
    .execute<{ rows: unknown; questions: unknown; from_packs: unknown }[]>(
      'select count(*) as rows, coalesce(sum(questions), 0) as questions, coalesce(sum(from_packs), 0) as from_packs from usage_ledger where workspace_id = ?',
      [workspaceId],
    );
  return { rows: Number(row?.rows), questions: Number(row?.questions), fromPacks: Number(row?.from_packs) };
}

/** Spends the whole allowance of a workspace, as if earlier answers had used it. */
export async function exhaustQuestions(t: TestApp, workspaceId: string, questions: number): Promise<void> {
  await t.app.services.orm.em.fork().execute(
    `insert into usage_ledger (id, workspace_id, key_id, user_id, kind, route, model_class, model, prompt_tokens, completion_tokens, total_tokens, questions, from_allowance, from_packs, created_at)
     values (?, ?, null, null, 'question', 'test', 'light', 'test', 0, 0, 0, ?, ?, 0, ?)`,
    [newId('use'), workspaceId, questions, questions, t.clock.now()],
  );
}

/** Rows of a workspace's questions ledger (a refusal must add none). */
export async function ledgerRows(t: TestApp, workspaceId: string): Promise<{ rows: number; totalTokens: number; questions: number }> {
  const [row] = await t.app.services.orm.em
    .fork()
    .execute<{ rows: unknown; tokens: unknown; questions: unknown }[]>(
      `select count(*) as rows, coalesce(sum(total_tokens), 0) as tokens, coalesce(sum(questions), 0) as questions from usage_ledger where workspace_id = ? and route <> 'test'`,
      [workspaceId],
    );
  return { rows: Number(row?.rows), totalTokens: Number(row?.tokens), questions: Number(row?.questions) };
}
