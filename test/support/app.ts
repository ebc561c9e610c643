import type { Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp, listen, type RunningApp } from '../../src/app/create-app.js';
import { loadConfig } from '../../src/config.js';
import { ManualClock } from '../../src/lib/clock.js';
import { createLogger, type Logger } from '../../src/lib/logger.js';
import { issueKey } from '../../src/modules/keys/keys.service.js';
import type { KeyAttributes } from '../../src/modules/keys/keys.schemas.js';
import { createUser } from '../../src/modules/workspaces/workspaces.service.js';
import { createWorkspace } from '../../src/modules/provisioning/provisioning.service.js';
import type { PlanName } from '../../src/modules/workspaces/workspace.entity.js';
import type { Resolver } from '../../src/net/index.js';
import { createTestDatabase, type TestDatabase } from './database.js';

export interface TestTenant {
  workspaceId: string;
  userId: string;
  key: string;
}

export interface TestApp {
  baseUrl: string;
  app: RunningApp;
  clock: ManualClock;
  db: TestDatabase;
  /** Requests the server is still answering (a request counts until its response closes: sent, or the client left). */
  readonly openRequests: number;
  /** A workspace with its first user and an unrestricted key. */
  tenant(opts?: { plan?: PlanName; seats?: number; name?: string }): Promise<TestTenant>;
  /** Another user of a workspace, with an unrestricted key. */
  user(workspaceId: string): Promise<TestTenant>;
  /** A key with the given attributes for an existing user. */
  key(owner: { workspaceId: string; userId: string }, attrs?: KeyAttributes): Promise<string>;
  close(): Promise<void>;
}

/** Starts the real app over HTTP on loopback, on a database of its own. */
export async function startTestApp(
  opts: { env?: Record<string, string>; clock?: ManualClock; resolve?: Resolver; log?: Logger } = {},
): Promise<TestApp> {
  const db = await createTestDatabase({ migrated: true });
  const clock = opts.clock ?? new ManualClock();
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    SVC_DEPLOYMENT: 'onprem',
    SVC_BACKGROUND_JOBS: 'off',
    ...(db.url ? { DATABASE_URL: db.url } : {}),
    SVC_DATA_DIR: db.dataDir,
    SVC_DB_POOL_MAX: '20',
    ...opts.env,
  });
  const app = await createApp({ config, clock, log: opts.log ?? createLogger(config.logLevel), ...(opts.resolve ? { resolve: opts.resolve } : {}) });
  const server: Server = await listen(app.http, 0, '127.0.0.1');
  const { port } = server.address() as AddressInfo;
  let openRequests = 0;
  server.on('request', (_req, res: ServerResponse) => {
    openRequests++;
    res.once('close', () => openRequests--);
  });
  const actx = () => ({ em: app.services.orm.em.fork(), clock });
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    app,
    clock,
    db,
    get openRequests() {
      return openRequests;
    },
    async tenant(t = {}) {
      const created = await createWorkspace(actx(), { name: t.name ?? 'Test workspace', plan: t.plan ?? 'cabinet', seats: t.seats ?? 5 });
      return { workspaceId: created.workspace.id, userId: created.user.id, key: created.issued.secret };
    },
    async user(workspaceId) {
      const user = await createUser(actx(), workspaceId);
      const { secret } = await issueKey(actx(), { workspaceId, userId: user.id }, {});
      return { workspaceId, userId: user.id, key: secret };
    },
    async key(owner, attrs = {}) {
      return (await issueKey(actx(), owner, attrs)).secret;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await app.close();
      await db.drop();
    },
  };
}
