import { createHash, createPublicKey, verify, type JsonWebKey } from 'node:crypto';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { expect } from 'vitest';
import { createContext, type ServiceContext } from '../../src/core/context.js';
import { authenticateSecret } from '../../src/modules/keys/keys.service.js';
import { usageOf } from '../../src/modules/models/provider.js';
import { recordConsumption } from '../../src/modules/usage/metering.service.js';
import { startTestApp, type TestApp, type TestTenant } from './app.js';
import { checkedFetch } from './openapi-validation.js';
import { startScriptedModelServer, type ScriptedModelServer } from './scripted-model-server.js';

/** Model names the scripted server answers as; the registry classes them as below. */
export const STANDARD_MODEL = 'scripted-standard';
export const PREMIUM_MODEL = 'scripted-premium';

export interface GatewayHarness {
  t: TestApp;
  models: ScriptedModelServer;
  /** The body of the last request the scripted model server received (what the provider was sent). */
  lastModelRequest(): Record<string, any>;
  close(): Promise<void>;
}

/**
 * The app with two configured models on one scripted server: an OpenAI-compatible `standard` one
 * (the default) and an Anthropic `premium` one; the built-in local model is the light class.
 */
export async function startGateway(env: Record<string, string> = {}): Promise<GatewayHarness> {
  const models = await startScriptedModelServer();
  const t = await startTestApp({
    env: {
      SVC_MODEL_BASE_URL: models.baseUrl,
      SVC_MODEL: STANDARD_MODEL,
      SVC_MODEL_CLASS: 'standard',
      SVC_ANTHROPIC_API_KEY: 'scripted',
      SVC_ANTHROPIC_BASE_URL: models.anthropicBaseUrl,
      SVC_ANTHROPIC_MODEL: PREMIUM_MODEL,
      SVC_ANTHROPIC_MODEL_CLASS: 'premium',
      SVC_MODEL_TIMEOUT_MS: '10000',
      ...env,
    },
  });
  return {
    t,
    models,
    lastModelRequest: () => models.requests.at(-1) as Record<string, any>,
    async close() {
      await t.close();
      await models.close();
    },
  };
}

/** The gateway with one tenant, for a test file's `beforeAll` (close it with `h.close()` in `afterAll`). */
export async function startGatewayWithTenant(env: Record<string, string> = {}): Promise<{ h: GatewayHarness; a: TestTenant }> {
  const h = await startGateway(env);
  return { h, a: await h.t.tenant() };
}

/** The official clients, their responses checked against /openapi.json (openapi-validation.ts). */
export const openaiClient = (t: TestApp, key: string, headers: Record<string, string> = {}) =>
  new OpenAI({ apiKey: key, baseURL: `${t.baseUrl}/v1`, maxRetries: 0, defaultHeaders: headers, fetch: checkedFetch(t.baseUrl) });

export const anthropicClient = (t: TestApp, key: string, headers: Record<string, string> = {}) =>
  new Anthropic({ apiKey: key, baseURL: t.baseUrl, maxRetries: 0, defaultHeaders: headers, fetch: checkedFetch(t.baseUrl) });

/** The error a client call rejects with, checked to be of the client's API error class. */
async function rejection<E>(p: Promise<unknown>, errorClass: abstract new (...args: never[]) => unknown): Promise<E> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(errorClass);
  // A response /openapi.json does not describe surfaces as a connection error: never an expected refusal.
  expect(String((err as { cause?: unknown }).cause ?? '')).not.toMatch(/OpenAPI mismatch/);
  return err as E;
}

export const openaiError = (p: Promise<unknown>) => rejection<InstanceType<typeof OpenAI.APIError>>(p, OpenAI.APIError);

export const anthropicError = (p: Promise<unknown>) => rejection<InstanceType<typeof Anthropic.APIError>>(p, Anthropic.APIError);

export async function contextOf(t: TestApp, tenant: TestTenant): Promise<ServiceContext> {
  const services = t.app.services;
  return createContext(services, await authenticateSecret(services.orm.em.fork(), t.clock, tenant.key));
}

/** Spends the workspace's whole allowance through the ledger. */
export async function exhaustAllowance(t: TestApp, tenant: TestTenant): Promise<void> {
  await recordConsumption(await contextOf(t, tenant), { route: 'test', modelClass: 'frontier', usage: usageOf(50_000_000, 0) });
}

/** RFC 8785 for the JSON our certificates hold (strings, integers, null, objects, arrays): sorted keys, no spaces. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    return `{${Object.keys(obj)
      .sort()
      .filter((k) => obj[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical(obj[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

export const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** Offline verification with node:crypto and the published key only. */
export function verifyOffline(cert: Record<string, unknown>, publicKey: { pem: string; jwk: JsonWebKey }) {
  const { hash, signature, ...body } = cert;
  const payload = Buffer.from(canonical(body), 'utf8');
  const fromPem = createPublicKey(publicKey.pem);
  const fromJwk = createPublicKey({ key: publicKey.jwk, format: 'jwk' });
  const sig = Buffer.from(String(signature), 'base64url');
  return {
    hashOk: createHash('sha256').update(payload).digest('hex') === hash,
    pemOk: verify(null, payload, fromPem, sig),
    jwkOk: verify(null, payload, fromJwk, sig),
  };
}
