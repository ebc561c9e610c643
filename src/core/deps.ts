import type { AppConfig } from '../config.js';
import type { Orm } from '../db/types.js';
import type { Clock } from '../lib/clock.js';
import type { Logger } from '../lib/logger.js';
import type { AppMetrics } from '../lib/metrics.js';
import type { Shutdown } from '../lib/shutdown.js';
import type { Resolver } from '../net/index.js';

/** What the whole process shares, built first by the composition root (`src/app/create-app.ts`). */
export interface Kernel {
  readonly config: AppConfig;
  readonly orm: Orm;
  readonly clock: Clock;
  readonly log: Logger;
  /** DNS resolver for outbound HTTP (`safeFetch`, `validateOutboundUrl`); undefined = system DNS. Tests inject one. */
  readonly resolve: Resolver | undefined;
  /** Process shutdown: draining (health 503, workers wind down), then `signal` aborts (streams end). */
  readonly shutdown: Shutdown;
  /** The app's Prometheus metrics: the process's instruments and the scrape-time gauges (GET /metrics). */
  readonly metrics: AppMetrics;
  /** Registers work to stop when the app closes (timers, cron tasks, workers). */
  onClose(fn: () => Promise<void> | void): void;
}

/**
 * The one dependency object of an app, handed to every use case as `ctx.app`: the kernel plus the
 * long-lived state and ports of the modules. `src/app/create-app.ts` builds it once, completely, before
 * anything runs, and freezes it.
 *
 * Core imports no module: each module declares its own part next to the code that owns it, by
 * declaration merging (`declare module '…/core/deps.js' { interface Deps { readonly x: X } }`), so the
 * type is complete wherever it is used while every import still points from the modules down to core.
 * A module that declares a part makes create-app provide it (the properties are required).
 */
export interface Deps extends Kernel {}
