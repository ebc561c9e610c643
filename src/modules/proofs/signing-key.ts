import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type JsonWebKey, type KeyObject } from 'node:crypto';
import type { Kernel } from '../../core/deps.js';
import type { Em } from '../../db/types.js';
import { GatewaySigningKey } from './proof.entity.js';

/** The gateway's Ed25519 key pair. The private half never leaves this module's callers. */
export interface GatewayKey {
  /** RFC 7638 JWK thumbprint (SHA-256, base64url) of the public key. */
  keyId: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
}

export interface PublicKeyDto {
  keyId: string;
  algorithm: 'Ed25519';
  pem: string;
  jwk: JsonWebKey & { kid: string; alg: 'EdDSA'; use: 'sig' };
  createdAt: string;
}

/** Config variable holding an Ed25519 private key in PKCS#8 PEM (literal `\n` accepted for one-line env files). */
export const SIGNING_KEY_ENV = 'SVC_GATEWAY_SIGNING_KEY';

/** The app's signing key and the public keys of earlier ones (verifying old certificates), cached. */
export interface GatewaySigning {
  readonly key: GatewayKey;
  /** A public key by id, for verifying certificates signed by an earlier key; null when unknown. */
  publicKeyById(em: Em, keyId: string): Promise<KeyObject | null>;
}

/**
 * Loads the signing key of this app once, at start-up: the configured one, else the one persisted in the
 * database, else a new one generated and persisted (first start). A bad configured key throws.
 */
export async function loadGatewaySigning(app: Kernel): Promise<GatewaySigning> {
  const key = await resolveKey(app);
  const publicKeys = new Map<string, KeyObject>();
  return {
    key,
    async publicKeyById(em, keyId) {
      const cached = publicKeys.get(keyId);
      if (cached) return cached;
      const row = await em.findOne(GatewaySigningKey, { id: keyId });
      const found = row ? createPublicKey(row.publicKeyPem) : null;
      if (found) publicKeys.set(keyId, found);
      return found;
    },
  };
}

declare module '../../core/deps.js' {
  interface Deps {
    /** The gateway's proof-signing key (proofs module). */
    readonly signing: GatewaySigning;
  }
}

export function thumbprint(publicKey: KeyObject): string {
  const jwk = publicKey.export({ format: 'jwk' });
  // RFC 7638: the required members in lexicographic order, no whitespace.
  const json = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x });
  return createHash('sha256').update(json).digest('base64url');
}

export function publicKeyDto(row: Pick<GatewaySigningKey, 'id' | 'publicKeyPem' | 'createdAt'>): PublicKeyDto {
  const jwk = createPublicKey(row.publicKeyPem).export({ format: 'jwk' });
  return {
    keyId: row.id,
    algorithm: 'Ed25519',
    pem: row.publicKeyPem,
    jwk: { kty: jwk.kty, crv: jwk.crv, x: jwk.x, kid: row.id, alg: 'EdDSA', use: 'sig' },
    createdAt: row.createdAt.toISOString(),
  };
}

async function resolveKey(app: Kernel): Promise<GatewayKey> {
  const configured = app.config.env[SIGNING_KEY_ENV]?.trim();
  const em = app.orm.em.fork();
  if (configured) {
    const privateKey = parseConfiguredKey(configured);
    const key = fromPrivate(privateKey);
    await em.execute(
      'insert into gateway_signing_key (id, public_key_pem, private_key_pem, created_at) values (?, ?, null, ?) on conflict (id) do nothing',
      [key.keyId, pemOf(key.publicKey), app.clock.now()],
    );
    return key;
  }
  // Several processes may start on an empty database at once: one generates, the others read it.
  return em.transactional(async (tx) => {
    await tx.execute(`select pg_advisory_xact_lock(hashtext('svc.gateway-signing-key'))`);
    const existing = await tx.findOne(GatewaySigningKey, { privateKeyPem: { $ne: null } }, { orderBy: { createdAt: 'asc', id: 'asc' } });
    if (existing?.privateKeyPem) return fromPrivate(createPrivateKey(existing.privateKeyPem));
    const { privateKey } = generateKeyPairSync('ed25519');
    const key = fromPrivate(privateKey);
    tx.create(GatewaySigningKey, {
      id: key.keyId,
      publicKeyPem: pemOf(key.publicKey),
      privateKeyPem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
      createdAt: app.clock.now(),
    });
    return key;
  });
}

function parseConfiguredKey(text: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey(text.replace(/\\n/g, '\n'));
  } catch {
    throw new Error(`Invalid configuration: ${SIGNING_KEY_ENV} must be an Ed25519 private key in PKCS#8 PEM`);
  }
  if (key.asymmetricKeyType !== 'ed25519') {
    throw new Error(`Invalid configuration: ${SIGNING_KEY_ENV} must be an Ed25519 key (got ${key.asymmetricKeyType})`);
  }
  return key;
}

function fromPrivate(privateKey: KeyObject): GatewayKey {
  const publicKey = createPublicKey(privateKey);
  return { keyId: thumbprint(publicKey), privateKey, publicKey };
}

const pemOf = (publicKey: KeyObject): string => publicKey.export({ format: 'pem', type: 'spki' }).toString();
