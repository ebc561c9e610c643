import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp, type RunningApp } from '../../src/app/create-app.js';
import { loadConfig } from '../../src/config.js';
import { createContext } from '../../src/core/context.js';
import { ManualClock } from '../../src/lib/clock.js';
import { createLogger } from '../../src/lib/logger.js';
import { authenticateSecret } from '../../src/modules/keys/keys.service.js';
import { gatewayPublicKey, issueProof, verifyProof } from '../../src/modules/proofs/proofs.service.js';
import { createWorkspace } from '../../src/modules/provisioning/provisioning.service.js';

/**
 * The key's life across restarts: each step is a new process-like app opening the same embedded
 * database directory (the one database kind that outlives an app here on every machine).
 */
const dir = mkdtempSync(join(tmpdir(), 'svc-signing-key-'));
const clock = new ManualClock();
// An app still open when the test ends (a timeout on a loaded machine) is closed before its directory is
// removed: removing it under a running embedded database makes its next write fail outside any test.
const opened = new Set<RunningApp>();
afterAll(async () => {
  await Promise.allSettled([...opened].map((app) => app.close()));
  rmSync(dir, { recursive: true, force: true });
});

async function open(env: Record<string, string> = {}): Promise<RunningApp> {
  const config = loadConfig({ LOG_LEVEL: 'silent', SVC_BACKGROUND_JOBS: 'off', SVC_DATA_DIR: dir, ...env });
  const app = await createApp({ config, clock, log: createLogger('silent') });
  opened.add(app);
  return app;
}

async function withApp<T>(env: Record<string, string>, fn: (app: RunningApp) => Promise<T>): Promise<T> {
  const app = await open(env);
  try {
    return await fn(app);
  } finally {
    await app.close();
    opened.delete(app);
  }
}

const ctxOf = async (app: RunningApp, secret: string) =>
  createContext(app.services, await authenticateSecret(app.services.orm.em.fork(), clock, secret));

const usage = { promptTokens: 1, completionTokens: 1, totalTokens: 2 };
const proofInput = (answer: string) => ({ route: 'POST /v1/chat/completions', modelAddress: 'svc-auto', model: 'm', request: { answer }, answer, usage });

describe('gateway signing key', () => {
  it('is generated on first start, persisted across restarts, replaced by SVC_GATEWAY_SIGNING_KEY; old certificates still verify', async () => {
    const first = await withApp({}, async (app) => {
      const created = await createWorkspace({ em: app.services.orm.em.fork(), clock }, { name: 'Keys' });
      const ctx = await ctxOf(app, created.issued.secret);
      const key = await gatewayPublicKey(ctx);
      const { id } = await issueProof(ctx, proofInput('one'));
      return { secret: created.issued.secret, keyId: key.keyId, proofId: id };
    });

    await withApp({}, async (app) => {
      const ctx = await ctxOf(app, first.secret);
      expect((await gatewayPublicKey(ctx)).keyId).toBe(first.keyId);
      expect((await verifyProof(ctx, first.proofId)).valid).toBe(true);
    });

    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString().replace(/\n/g, '\\n');
    await withApp({ SVC_GATEWAY_SIGNING_KEY: pem }, async (app) => {
      const ctx = await ctxOf(app, first.secret);
      const key = await gatewayPublicKey(ctx);
      expect(key.keyId).not.toBe(first.keyId);
      expect(key.jwk.x).toBe(publicKey.export({ format: 'jwk' }).x);
      expect(key.keys.map((k) => k.keyId).sort()).toEqual([first.keyId, key.keyId].sort());
      expect(JSON.stringify(key)).not.toContain('PRIVATE');
      const stored = await app.services.orm.em.getConnection().execute('select id, private_key_pem from gateway_signing_key where id = ?', [key.keyId]);
      expect(stored).toEqual([{ id: key.keyId, private_key_pem: null }]);
      // The chain continues across the key change, and both certificates verify.
      const { id } = await issueProof(ctx, proofInput('two'));
      expect((await verifyProof(ctx, first.proofId)).valid).toBe(true);
      expect(await verifyProof(ctx, id)).toMatchObject({ valid: true, checks: { chain: true } });
    });

    await expect(open({ SVC_GATEWAY_SIGNING_KEY: 'not a key' })).rejects.toThrow(/SVC_GATEWAY_SIGNING_KEY/);
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    await expect(open({ SVC_GATEWAY_SIGNING_KEY: rsa })).rejects.toThrow(/Ed25519/);
  }, 240_000);
});
