import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp, listen } from '../../src/app/create-app.js';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/orm.js';
import { bootstrapFirstWorkspace } from '../../src/modules/provisioning/provisioning.service.js';
import { systemClock } from '../../src/lib/clock.js';
import { api } from '../support/api.js';
import { persona } from '../support/agents.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-embedded-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('embedded database (PGlite)', () => {
  it('bootstraps a first workspace, serves agents, keeps data across restarts and locks its directory', async () => {
    const config = loadConfig({ SVC_DATA_DIR: dir, LOG_LEVEL: 'silent', SVC_BACKGROUND_JOBS: 'off' });
    const first = await createApp({ config });
    const created = await bootstrapFirstWorkspace({ em: first.services.orm.em.fork(), clock: systemClock });
    expect(created?.issued.secret).toMatch(/^svc_/);
    // A second process (the CLI) cannot open the directory while the server holds it.
    await expect(openDatabase({ dataDir: dir })).rejects.toThrow(/in use by another process/);
    const server = await listen(first.http, 0, '127.0.0.1');
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const key = created!.issued.secret;
    const res = await api(base, key).post('/v1/agents', persona('Keep'));
    expect(res.status).toBe(201);
    server.closeAllConnections();
    server.close();
    await first.close();

    const second = await createApp({ config });
    expect(await bootstrapFirstWorkspace({ em: second.services.orm.em.fork(), clock: systemClock })).toBeNull();
    const server2 = await listen(second.http, 0, '127.0.0.1');
    const base2 = `http://127.0.0.1:${(server2.address() as { port: number }).port}`;
    const list = await api(base2, key).get('/v1/agents');
    expect(list.body.agents.map((a: { name: string }) => a.name)).toEqual(['Keep']);
    server2.closeAllConnections();
    server2.close();
    await second.close();
  }, 240_000);
});
