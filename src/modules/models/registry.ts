import { z } from 'zod';
import { AnthropicProvider } from './anthropic.provider.js';
import { LocalProvider } from './local.provider.js';
import { OpenAICompatibleProvider } from './openai-compatible.provider.js';
import { MODEL_CLASSES, type ModelClass, type ModelProvider } from './provider.js';

/** Tokens are multiplied by the answering model's class weight before conversion to questions (SPEC Limits > Questions). */
export const CLASS_MULTIPLIER: Readonly<Record<ModelClass, number>> = {
  light: 1,
  standard: 3,
  advanced: 6,
  premium: 12,
  frontier: 30,
};

/** Retries on 429/5xx/connection errors; one is enough to ride over a blip without doubling latency. */
const MAX_RETRIES = 1;

/** Unset and empty variables both mean "not configured" (an `.env` line `KEY=` is common). */
const optionalText = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
  z.string().trim().optional(),
);
const modelClass = z.enum(MODEL_CLASSES as [ModelClass, ...ModelClass[]]);

const ModelsEnvSchema = z.object({
  SVC_MODEL_BASE_URL: optionalText.pipe(z.url().optional()),
  SVC_MODEL_API_KEY: optionalText,
  SVC_MODEL: optionalText.pipe(z.string().default('gpt-4o-mini')),
  SVC_MODEL_CLASS: optionalText.pipe(modelClass.default('standard')),
  SVC_ANTHROPIC_API_KEY: optionalText,
  SVC_ANTHROPIC_MODEL: optionalText.pipe(z.string().default('claude-sonnet-4-6')),
  SVC_ANTHROPIC_BASE_URL: optionalText.pipe(z.url().optional()),
  SVC_ANTHROPIC_MODEL_CLASS: optionalText.pipe(modelClass.default('advanced')),
  SVC_MODEL_TIMEOUT_MS: optionalText.pipe(z.coerce.number<string | undefined>().int().positive().default(60_000)),
});

export interface ModelsConfig {
  openai: { baseUrl?: string; apiKey?: string; model: string; modelClass: ModelClass };
  anthropic: { apiKey?: string; baseUrl?: string; model: string; modelClass: ModelClass };
  timeoutMs: number;
}

/** Reads the model settings from an environment record (usually `process.env`); throws a ZodError when invalid. */
export function loadModelsConfig(env: Record<string, string | undefined>): ModelsConfig {
  const e = ModelsEnvSchema.parse(env);
  return {
    openai: { baseUrl: e.SVC_MODEL_BASE_URL, apiKey: e.SVC_MODEL_API_KEY, model: e.SVC_MODEL, modelClass: e.SVC_MODEL_CLASS },
    anthropic: {
      apiKey: e.SVC_ANTHROPIC_API_KEY,
      baseUrl: e.SVC_ANTHROPIC_BASE_URL,
      model: e.SVC_ANTHROPIC_MODEL,
      modelClass: e.SVC_ANTHROPIC_MODEL_CLASS,
    },
    timeoutMs: e.SVC_MODEL_TIMEOUT_MS,
  };
}

/** Providers given directly, for tests; the default is `defaultName`, else the first one. */
export interface InjectedProviders {
  providers: ModelProvider[];
  defaultName?: string;
}

/**
 * The configured models. The built-in local model is always present; the default is the
 * OpenAI-compatible server when configured, else Anthropic when its key is set, else local.
 */
export class ModelRegistry {
  private readonly providers: ModelProvider[];
  private readonly defaultProvider: ModelProvider;
  private readonly localProvider: ModelProvider;

  constructor(source: ModelsConfig | InjectedProviders) {
    const providers = 'providers' in source ? [...source.providers] : fromConfig(source);
    let local = providers.find((p) => p.local);
    if (!local) {
      local = new LocalProvider();
      providers.push(local);
    }
    this.providers = providers;
    this.localProvider = local;
    const wanted = 'providers' in source ? source.defaultName : undefined;
    const byName = wanted === undefined ? providers[0] : providers.find((p) => p.name === wanted);
    if (!byName) throw new Error(`Unknown default model provider: ${wanted}`);
    this.defaultProvider = byName;
  }

  default(): ModelProvider {
    return this.defaultProvider;
  }

  local(): ModelProvider {
    return this.localProvider;
  }

  all(): ModelProvider[] {
    return [...this.providers];
  }

  get(name: string): ModelProvider | undefined {
    return this.providers.find((p) => p.name === name);
  }

  /**
   * The cheapest provider of class `minClass` or above (the default wins a tie), or the default
   * when none reaches it. The local model counts: `byClass('light')` is the local model unless
   * the default is light too.
   */
  byClass(minClass: ModelClass): ModelProvider {
    const floor = MODEL_CLASSES.indexOf(minClass);
    const rankOf = (p: ModelProvider) => MODEL_CLASSES.indexOf(p.modelClass);
    const eligible = [this.defaultProvider, ...this.providers].filter((p) => rankOf(p) >= floor);
    if (eligible.length === 0) return this.defaultProvider;
    return eligible.reduce((best, p) => (rankOf(p) < rankOf(best) ? p : best));
  }

  classMultiplier(c: ModelClass): number {
    return CLASS_MULTIPLIER[c];
  }
}

/** Configured providers, the default first. */
function fromConfig(config: ModelsConfig): ModelProvider[] {
  const providers: ModelProvider[] = [];
  const { openai, anthropic, timeoutMs } = config;
  if (openai.baseUrl || openai.apiKey) {
    providers.push(
      new OpenAICompatibleProvider({
        model: openai.model,
        modelClass: openai.modelClass,
        baseURL: openai.baseUrl,
        apiKey: openai.apiKey,
        timeoutMs,
        maxRetries: MAX_RETRIES,
      }),
    );
  }
  if (anthropic.apiKey) {
    providers.push(
      new AnthropicProvider({
        model: anthropic.model,
        modelClass: anthropic.modelClass,
        apiKey: anthropic.apiKey,
        baseURL: anthropic.baseUrl,
        timeoutMs,
        maxRetries: MAX_RETRIES,
      }),
    );
  }
  providers.push(new LocalProvider());
  return providers;
}

declare module '../../core/deps.js' {
  interface Deps {
    /** The configured models (OpenAI-compatible, Anthropic, built-in local). */
    readonly models: ModelRegistry;
  }
}
