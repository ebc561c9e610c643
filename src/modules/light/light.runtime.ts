import { z } from 'zod';

/**
 * The light module's settings, read once from the environment (README, configuration):
 * `SVC_WEB_SEARCH_URL` a SearXNG-compatible JSON search endpoint (`GET <url>?q=…&format=json` answering
 * `{ results: [{ title, url, content }] }`), unset: `POST /light/web` answers 501
 * `web_search_not_configured`; `SVC_LIGHT_MIN_COVERAGE` the refusal threshold (docs/light.md measures it).
 */
const LightEnvSchema = z.object({
  SVC_WEB_SEARCH_URL: z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), z.url().optional()),
  SVC_WEB_SEARCH_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  SVC_LIGHT_MIN_COVERAGE: z.coerce.number().min(0).max(1).default(0.3),
  SVC_LIGHT_MAX_MISSING: z.coerce.number().min(0).max(1).default(0.4),
});

export interface LightRuntime {
  /** Coverage under which a question is refused without asking a model. */
  readonly minCoverage: number;
  /** A question whose best passage lacks one word holding more than this share of its weight is refused. */
  readonly maxMissing: number;
  readonly webSearchUrl: string | null;
  readonly webSearchTimeoutMs: number;
}

export function createLightRuntime(env: Record<string, string | undefined>): LightRuntime {
  const e = LightEnvSchema.parse(env);
  return { minCoverage: e.SVC_LIGHT_MIN_COVERAGE, maxMissing: e.SVC_LIGHT_MAX_MISSING, webSearchUrl: e.SVC_WEB_SEARCH_URL ?? null, webSearchTimeoutMs: e.SVC_WEB_SEARCH_TIMEOUT_MS };
}

declare module '../../core/deps.js' {
  interface Deps {
    /** The light module's settings (refusal threshold, web search endpoint). */
    readonly light: LightRuntime;
  }
}
