import cron from 'node-cron';
import type { AppServices } from '../../app/services.js';
import { runRetrySweep } from './dispatcher.js';

/**
 * The retry sweep, every minute, in every process that runs background jobs: the claims make sure two
 * processes never send the same attempt. Returns the stop function (aborting attempts in flight releases
 * them for the next sweep).
 */
export function startRetrySweep(app: AppServices): () => Promise<void> {
  const shutdown = new AbortController();
  let running: Promise<unknown> = Promise.resolve();
  const task = cron.schedule(
    '* * * * *',
    async () => {
      running = runRetrySweep(app, app.clock.now(), { signal: shutdown.signal }).catch((err: unknown) => {
        if (!shutdown.signal.aborted) app.log.error({ err }, 'webhook retry sweep failed');
      });
      await running;
    },
    {
      name: 'webhook-retry-sweep',
      noOverlap: true,
      // node-cron's own notices (an overlapping run skipped...) go to the service log, not to the console.
      logger: {
        info: (message) => app.log.info({ task: 'webhook-retry-sweep' }, message),
        warn: (message) => app.log.warn({ task: 'webhook-retry-sweep' }, message),
        error: (message, err) => app.log.error({ task: 'webhook-retry-sweep', err: err ?? message }, String(message)),
        debug: (message) => app.log.debug({ task: 'webhook-retry-sweep' }, String(message)),
      },
    },
  );
  return async () => {
    shutdown.abort();
    await task.destroy();
    await running;
  };
}
