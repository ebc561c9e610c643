import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { Kernel } from '../../core/deps.js';
import { ServerSecret } from './tool.entity.js';

/**
 * AES-256-GCM sealing of secret header values under a server key. The key comes from `SVC_SECRETS_KEY`
 * (32 bytes as base64, base64url or 64 hex characters), else it is generated on first start and kept in
 * the `server_secret` table. Sealed form: `v1.<keyId>.<iv>.<tag>.<ciphertext>` (base64url), the key id
 * being the first 8 bytes of the key's SHA-256 in hex; the additional data binds a value to its tool
 * and header name, so a sealed value copied elsewhere does not open.
 */
export interface SecretBox {
  keyId: string;
  seal(plain: string, context: string): string;
  /** Throws when the value was sealed under another key or altered. */
  open(sealed: string, context: string): string;
}

const KEY_ROW = 'tool-secrets-key';

/** The app's secret box, opened once at start-up; a bad configured key throws. */
export async function openSecretBox(app: Kernel): Promise<SecretBox> {
  return boxFor(await loadKey(app));
}

declare module '../../core/deps.js' {
  interface Deps {
    /** Seals and opens secret tool-header values (tools module). */
    readonly secretBox: SecretBox;
  }
}

/** Decodes a configured key; throws a configuration error naming the variable. */
export function parseSecretsKey(text: string): Buffer {
  const t = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(t) ? Buffer.from(t, 'hex') : Buffer.from(t.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (key.length !== 32) throw new Error('Invalid configuration: SVC_SECRETS_KEY must be 32 bytes (base64, base64url or 64 hex characters)');
  return key;
}

async function loadKey(app: Kernel): Promise<Buffer> {
  if (app.config.secretsKey) return parseSecretsKey(app.config.secretsKey);
  // Several processes may start on an empty database at once: one generates, the others read it.
  return app.orm.em.fork().transactional(async (tx) => {
    await tx.execute(`select pg_advisory_xact_lock(hashtext('svc.tool-secrets-key'))`);
    const existing = await tx.findOne(ServerSecret, { name: KEY_ROW });
    if (existing) return Buffer.from(existing.value, 'base64');
    const key = randomBytes(32);
    tx.create(ServerSecret, { name: KEY_ROW, value: key.toString('base64'), createdAt: app.clock.now() });
    return key;
  });
}

export function boxFor(key: Buffer): SecretBox {
  const keyId = createHash('sha256').update(key).digest('hex').slice(0, 16);
  return {
    keyId,
    seal(plain, context) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', keyId, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ct.toString('base64url')].join('.');
    },
    open(sealed, context) {
      const [version, id, iv, tag, ct] = sealed.split('.');
      if (version !== 'v1' || id !== keyId || !iv || !tag || ct === undefined) {
        throw new Error('secret was sealed under another server key');
      }
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}
