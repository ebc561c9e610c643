import cron from 'node-cron';
import type { Deps } from '../../core/deps.js';
import { runRetrySweep } from './dispatcher.js';

/**
 * The retry sweep, every minute, in every process that runs background jobs: the claims make sure two
 * processes never send the same attempt. `drain` stops the schedule and waits for the run in progress
 * (which claims no new batch once the app drains); `stop` also aborts the attempts in flight, releasing
 * them for the next sweep, as does the end of the app's drain time.
 */
export function startRetrySweep(app: Deps): { drain(): Promise<void>; stop(): Promise<void> } {
  const shutdown = new AbortController();
  const signal = AbortSignal.any([shutdown.signal, app.shutdown.signal]);
  let running: Promise<unknown> = Promise.resolve();
  const task = cron.schedule(
    '* * * * *',
    async () => {
      if (app.shutdown.draining) return;
      running = runRetrySweep(app, app.clock.now(), { signal }).catch((err: unknown) => {
        if (!signal.aborted) app.log.error({ err }, 'webhook retry sweep failed');
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
  return {
    async drain() {
      await task.stop();
      await running;
    },
    async stop() {
      shutdown.abort();
      await task.destroy();
      await running;
    },
  };
}
