import { schedule } from 'node-cron';
import type { Deps } from '../../core/deps.js';
import { sweepDeviceCodes } from './devices.service.js';
import { closeMonth } from './invoices.service.js';

/** Every day at 00:05 UTC; closing a month twice makes nothing, so a day missed is caught up the next one. */
export const MONTH_END_CRON = '5 0 * * *';

/**
 * The partner module's background work, when background jobs run: the month-end invoices (node-cron) and the sweep of expired pairing codes,
 * stopped when the app closes.
 */
export function startPartner(app: Deps): void {
  if (!app.config.backgroundJobs) return;
  const task = schedule(
    MONTH_END_CRON,
    async () => {
      try {
        const made = await closeMonth(app);
        if (made.length) app.log.info({ invoices: made.length, month: made[0].month }, 'partner invoices made');
      } catch (err) {
        app.log.error({ err: err instanceof Error ? err.message : String(err) }, 'partner month-end failed; retried tomorrow');
      }
    },
    { timezone: 'UTC', name: 'partner-month-end', noOverlap: true },
  );
  // Expired pairing codes, every ten minutes.
  const sweep = setInterval(() => {
    sweepDeviceCodes(app).catch((err) => app.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'device code sweep failed'));
  }, 10 * 60_000);
  sweep.unref();
  app.onClose(() => {
    clearInterval(sweep);
    return task.stop();
  });
}
