import type { AppConfig } from '../config.js';
import type { Orm } from '../db/orm.js';
import type { Clock } from '../lib/clock.js';
import type { Logger } from '../lib/logger.js';

/**
 * Process-wide dependencies handed to every service call through its context.
 * Modules add their long-lived collaborators here (model registry, event bus, limiter...).
 */
export interface AppServices {
  config: AppConfig;
  orm: Orm;
  clock: Clock;
  log: Logger;
  /** Registers work to stop when the app closes (timers, cron tasks, workers). */
  onClose(fn: () => Promise<void> | void): void;
}
