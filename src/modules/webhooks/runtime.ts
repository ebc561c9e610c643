import { ChangeSetType, type EventSubscriber } from '@mikro-orm/core';
import type { Deps } from '../../core/deps.js';
import { Notifier } from '../../lib/notifier.js';
import { OutboundPools } from '../../net/index.js';
import { LogTrimmer, OutcomeWriter } from './dispatcher.js';
import type { EventListener } from './events.js';
import { startRetrySweep } from './sweep.js';
import { WebhookDelivery } from './webhook.entity.js';
import { WebhookWorker } from './worker.js';

/** Process state of the webhooks module, created once by the composition root. */
export interface WebhooksRuntime {
  /** Notified after a commit that wrote deliveries; the in-process worker (when running) subscribes. */
  readonly wake: Notifier;
  /** Delivery-log trims of this process, batched (see `trimSoon`). */
  readonly trims: LogTrimmer;
  /** Keep-alive connections of deliveries, per (endpoint origin, address checked at the attempt). */
  readonly pools: OutboundPools;
  /** Attempt outcomes, written together (group commit). */
  readonly outcomes: OutcomeWriter;
  /** Consumers of every published event, called inside the producer's transaction (port, wired by create-app). */
  readonly listeners: readonly EventListener[];
}

export function createWebhooksRuntime(listeners: readonly EventListener[] = []): WebhooksRuntime {
  return { wake: new Notifier(), trims: new LogTrimmer(), pools: new OutboundPools(), outcomes: new OutcomeWriter(), listeners };
}

declare module '../../core/deps.js' {
  interface Deps {
    readonly webhooks: WebhooksRuntime;
  }
}

/**
 * Starts the webhooks module in a running app: producers' deliveries wake the worker once their
 * transaction has committed; with background jobs on, the worker and the minute retry sweep run here.
 */
export function startWebhooks(app: Deps): void {
  // Registered first, so closed last (closers run in reverse): after the worker and the sweep have stopped.
  app.onClose(() => app.webhooks.pools.close());
  app.orm.em.getEventManager().registerSubscriber(wakeAfterCommit(app));
  if (!app.config.backgroundJobs) return;
  const worker = new WebhookWorker(app, { pollMs: 1000, maxInFlight: app.config.webhookConcurrency });
  const unsubscribe = app.webhooks.wake.subscribe(() => worker.notify());
  worker.start();
  const sweep = startRetrySweep(app);
  // Draining: no new claims; attempts in flight finish, or are released when the drain time is over.
  app.shutdown.onDrain(async () => {
    await Promise.all([sweep.drain(), worker.drain()]);
  });
  app.onClose(async () => {
    unsubscribe();
    await sweep.stop();
    await worker.stop();
  });
}

/**
 * After a flush that wrote scheduled deliveries: wake the worker at once when the flush committed on its
 * own, or when the enclosing transaction commits. A rollback wakes nobody; a commit of a nested savepoint
 * wakes it early, in which case the polling safety net makes the first attempt.
 */
function wakeAfterCommit(app: Deps): EventSubscriber {
  const waitingForCommit = new WeakSet<object>();
  return {
    afterFlush({ em, uow }) {
      const wroteDeliveries = uow
        .getChangeSets()
        .some((cs) => cs.type === ChangeSetType.CREATE && cs.entity instanceof WebhookDelivery && cs.entity.nextAttemptAt);
      if (!wroteDeliveries) return;
      const transaction = em.isInTransaction() ? em.getTransactionContext() : undefined;
      if (transaction) waitingForCommit.add(transaction);
      else app.webhooks.wake.notify();
    },
    afterTransactionCommit({ transaction }) {
      if (transaction && waitingForCommit.delete(transaction)) app.webhooks.wake.notify();
    },
  };
}
