import type { AppConfig } from '../config.js';
import type { Orm } from '../db/orm.js';
import type { Clock } from '../lib/clock.js';
import type { Logger } from '../lib/logger.js';
import type { Shutdown } from '../lib/shutdown.js';
import type { KnowledgeRetriever, ToolRunner } from '../modules/chat/turn-extensions.js';
import type { ModelRegistry } from '../modules/models/registry.js';
import type { UsageRuntime } from '../modules/usage/runtime.js';
import type { Resolver } from '../net/index.js';

/**
 * Process-wide dependencies handed to every service call through its context.
 * Modules add their long-lived collaborators here (model registry, event bus, limiter...).
 */
export interface AppServices {
  config: AppConfig;
  orm: Orm;
  clock: Clock;
  log: Logger;
  /** Usage module state (per-key budget cache); created on first use by `usageRuntime()`. */
  usage?: UsageRuntime;
  /** DNS resolver for outbound HTTP (`safeFetch`, `validateOutboundUrl`); unset = system DNS. Tests inject one. */
  resolve?: Resolver;
  /** Wakes the in-process webhook worker (after a commit that wrote deliveries); set by the webhooks module. */
  webhooks?: { notify(): void };
  /** The configured models (OpenAI-compatible, Anthropic, built-in local); see src/modules/models. */
  models: ModelRegistry;
  /** Knowledge retrieval for chat turns; set by the knowledge module. Unset: turns read no documents. */
  knowledge?: KnowledgeRetriever;
  /** Workspace tools for chat turns; set by the tools module. Unset: turns call no tools. */
  tools?: ToolRunner;
  /** Process shutdown: draining (health 503, workers wind down), then `signal` aborts (streams end). */
  shutdown: Shutdown;
  /** Registers work to stop when the app closes (timers, cron tasks, workers). */
  onClose(fn: () => Promise<void> | void): void;
}
