import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnthropicProvider } from '../../src/modules/models/anthropic.provider.js';
import { LocalProvider } from '../../src/modules/models/local.provider.js';
import { OpenAICompatibleProvider } from '../../src/modules/models/openai-compatible.provider.js';
import type { ModelClass, ModelProvider } from '../../src/modules/models/provider.js';
import { CLASS_MULTIPLIER, ModelRegistry, loadModelsConfig } from '../../src/modules/models/registry.js';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server.js';

const registryFrom = (env: Record<string, string | undefined>) => new ModelRegistry(loadModelsConfig(env));

/** A provider that is never called: only its identity matters to the registry. */
function fake(name: string, modelClass: ModelClass): ModelProvider {
  const never = () => {
    throw new Error('not called');
  };
  return { name, model: `${name}-model`, modelClass, local: false, supportsTools: true, complete: never, stream: never, countTokens: async () => 0 };
}

describe('loadModelsConfig', () => {
  it('applies the defaults', () => {
    expect(loadModelsConfig({})).toEqual({
      openai: { baseUrl: undefined, apiKey: undefined, model: 'gpt-4o-mini', modelClass: 'standard' },
      anthropic: { apiKey: undefined, baseUrl: undefined, model: 'claude-sonnet-4-6', modelClass: 'advanced' },
      timeoutMs: 60_000,
    });
  });

  it('reads every variable and treats empty ones as unset', () => {
    const config = loadModelsConfig({
      SVC_MODEL_BASE_URL: 'http://127.0.0.1:11434/v1',
      SVC_MODEL_API_KEY: '',
      SVC_MODEL: 'llama3.1',
      SVC_MODEL_CLASS: 'light',
      SVC_ANTHROPIC_API_KEY: 'sk-ant',
      SVC_ANTHROPIC_MODEL: 'claude-opus-4-5',
      SVC_ANTHROPIC_BASE_URL: 'http://127.0.0.1:9/',
      SVC_ANTHROPIC_MODEL_CLASS: 'premium',
      SVC_MODEL_TIMEOUT_MS: '15000',
    });
    expect(config).toEqual({
      openai: { baseUrl: 'http://127.0.0.1:11434/v1', apiKey: undefined, model: 'llama3.1', modelClass: 'light' },
      anthropic: { apiKey: 'sk-ant', baseUrl: 'http://127.0.0.1:9/', model: 'claude-opus-4-5', modelClass: 'premium' },
      timeoutMs: 15_000,
    });
    expect(loadModelsConfig({ SVC_MODEL: '', SVC_MODEL_CLASS: '' }).openai).toMatchObject({ model: 'gpt-4o-mini', modelClass: 'standard' });
  });

  it('rejects an unknown class, a bad URL or a bad timeout', () => {
    expect(() => loadModelsConfig({ SVC_MODEL_CLASS: 'huge' })).toThrow();
    expect(() => loadModelsConfig({ SVC_MODEL_BASE_URL: 'not a url' })).toThrow();
    expect(() => loadModelsConfig({ SVC_MODEL_TIMEOUT_MS: '-5' })).toThrow();
  });
});

describe('ModelRegistry', () => {
  it('defaults to the local model when nothing is configured', () => {
    const registry = registryFrom({});
    expect(registry.default()).toBeInstanceOf(LocalProvider);
    expect(registry.default()).toBe(registry.local());
    expect(registry.all()).toHaveLength(1);
  });

  it('prefers the OpenAI-compatible server when its URL or key is set', () => {
    const byUrl = registryFrom({ SVC_MODEL_BASE_URL: 'http://127.0.0.1:1/v1', SVC_ANTHROPIC_API_KEY: 'sk-ant' });
    expect(byUrl.default()).toBeInstanceOf(OpenAICompatibleProvider);
    expect(byUrl.default()).toMatchObject({ model: 'gpt-4o-mini', modelClass: 'standard', local: false });
    expect(byUrl.all().map((p) => p.name)).toEqual(['openai', 'anthropic', 'local']);
    expect(registryFrom({ SVC_MODEL_API_KEY: 'sk' }).default()).toBeInstanceOf(OpenAICompatibleProvider);
  });

  it('falls back to Anthropic when only its key is set', () => {
    const registry = registryFrom({ SVC_ANTHROPIC_API_KEY: 'sk-ant' });
    expect(registry.default()).toBeInstanceOf(AnthropicProvider);
    expect(registry.default()).toMatchObject({ model: 'claude-sonnet-4-6', modelClass: 'advanced' });
    expect(registry.local()).toBeInstanceOf(LocalProvider);
  });

  it('picks the cheapest provider at or above a class, else the default', () => {
    const standard = fake('standard', 'standard');
    const premium = fake('premium', 'premium');
    const advanced = fake('advanced', 'advanced');
    const registry = new ModelRegistry({ providers: [premium, standard, advanced], defaultName: 'standard' });
    expect(registry.default()).toBe(standard);
    expect(registry.byClass('light')).toBe(registry.local());
    expect(registry.byClass('standard')).toBe(standard);
    expect(registry.byClass('advanced')).toBe(advanced);
    expect(registry.byClass('premium')).toBe(premium);
    expect(registry.byClass('frontier')).toBe(standard);
    expect(registry.get('advanced')).toBe(advanced);
  });

  it('lets tests inject providers and keeps one local model', () => {
    const local = new LocalProvider();
    const registry = new ModelRegistry({ providers: [local, fake('remote', 'standard')], defaultName: 'remote' });
    expect(registry.local()).toBe(local);
    expect(registry.all()).toHaveLength(2);
    expect(registry.default().name).toBe('remote');
    expect(() => new ModelRegistry({ providers: [], defaultName: 'missing' })).toThrow(/missing/);
  });

  it('weights classes as the spec says', () => {
    expect(CLASS_MULTIPLIER).toEqual({ light: 1, standard: 3, advanced: 6, premium: 12, frontier: 30 });
    const registry = registryFrom({});
    expect(registry.classMultiplier('premium')).toBe(12);
  });
});

describe('ModelRegistry against the scripted server', () => {
  let server: ScriptedModelServer;
  beforeAll(async () => {
    server = await startScriptedModelServer();
  });
  afterAll(() => server.close());

  it('reaches the configured OpenAI-compatible server', async () => {
    const registry = registryFrom({ SVC_MODEL_BASE_URL: server.baseUrl, SVC_MODEL: 'scripted-4' });
    const result = await registry.default().complete({ messages: [{ role: 'user', content: 'ping' }] });
    expect(result).toMatchObject({ content: 'Scripted answer to: ping', model: 'scripted-4' });
  });

  it('reaches the configured Anthropic server', async () => {
    const registry = registryFrom({
      SVC_ANTHROPIC_API_KEY: 'sk-ant',
      SVC_ANTHROPIC_BASE_URL: server.anthropicBaseUrl,
      SVC_ANTHROPIC_MODEL: 'claude-test',
    });
    const result = await registry.default().complete({ messages: [{ role: 'user', content: 'pong' }] });
    expect(result).toMatchObject({ content: 'Scripted answer to: pong', model: 'claude-test' });
  });
});
