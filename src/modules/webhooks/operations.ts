import { z } from 'zod';
import { defineOperation } from '../../core/operation.js';
import { WEBHOOK_EVENTS } from './events.js';

// The webhooks family's declared operations (issue 29 §1); its other routes and fields are still on the
// list of those not converted yet (test/platform/operations.test.ts).

/** The event names an endpoint may subscribe to (GraphQL `webhookEventNames`), in catalogue order. */
export const listEventNamesOp = defineOperation({
  name: 'webhooks.eventNames',
  needs: { scope: 'webhooks' },
  input: z.object({}),
  run: async () => [...WEBHOOK_EVENTS],
});
