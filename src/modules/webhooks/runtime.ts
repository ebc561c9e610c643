import { ChangeSetType, type EventSubscriber } from '@mikro-orm/core';
import type { AppServices } from '../../app/services.js';
import { bindApp } from './registry.js';
import { startRetrySweep } from './sweep.js';
import { WebhookDelivery } from './webhook.entity.js';
import { WebhookWorker } from './worker.js';

/**
 * Wires the webhooks module into a running app: producers' deliveries wake the worker once their
 * transaction has committed; with background jobs on, the worker and the minute retry sweep run here.
 */
export function startWebhooks(app: AppServices): void {
  bindApp(app);
  app.orm.em.getEventManager().registerSubscriber(wakeAfterCommit(app));
  if (!app.config.backgroundJobs) return;
  const worker = new WebhookWorker(app, { pollMs: 1000, maxInFlight: 128 });
  app.webhooks = worker;
  worker.start();
  const sweep = startRetrySweep(app);
  // Draining: no new claims; attempts in flight finish, or are released when the drain time is over.
  app.shutdown.onDrain(async () => {
    await Promise.all([sweep.drain(), worker.drain()]);
  });
  app.onClose(async () => {
    await sweep.stop();
    await worker.stop();
  });
}

/**
 * After a flush that wrote scheduled deliveries: wake the worker at once when the flush committed on its
 * own, or when the enclosing transaction commits. A rollback wakes nobody; a commit of a nested savepoint
 * wakes it early, in which case the polling safety net makes the first attempt.
 */
function wakeAfterCommit(app: AppServices): EventSubscriber {
  const waitingForCommit = new WeakSet<object>();
  return {
    afterFlush({ em, uow }) {
      const wroteDeliveries = uow
        .getChangeSets()
        .some((cs) => cs.type === ChangeSetType.CREATE && cs.entity instanceof WebhookDelivery && cs.entity.nextAttemptAt);
      if (!wroteDeliveries) return;
      const transaction = em.isInTransaction() ? em.getTransactionContext() : undefined;
      if (transaction) waitingForCommit.add(transaction);
      else app.webhooks?.notify();
    },
    afterTransactionCommit({ transaction }) {
      if (transaction && waitingForCommit.delete(transaction)) app.webhooks?.notify();
    },
  };
}
