import type { AppServices } from '../app/services.js';
import { createContext, type ServiceContext } from '../context.js';
import { authenticateSecret, secretFromHeaders } from '../modules/keys/keys.service.js';
import { enforceKeyRate } from '../modules/usage/rate-limit.service.js';
import { releaseHold } from '../modules/usage/metering.service.js';

export interface GraphQLContext {
  app: AppServices;
  /** Authenticates once per operation, lazily, so GraphiQL and introspection work before a key is typed. */
  service(): Promise<ServiceContext>;
  /** Ends the operation: gives back a question hold it did not use. */
  finish(): Promise<void>;
  signal?: AbortSignal;
}

export function buildGraphQLContext(app: AppServices, request: Request): GraphQLContext {
  let pending: Promise<ServiceContext> | undefined;
  return {
    app,
    signal: request.signal,
    service() {
      pending ??= (async () => {
        const secret = secretFromHeaders({
          authorization: request.headers.get('authorization'),
          'x-api-key': request.headers.get('x-api-key'),
        });
        const caller = await authenticateSecret(app.orm.em.fork(), app.clock, secret);
        await enforceKeyRate(app, caller); // the key's ratePerMinute, once per operation
        return createContext(app, caller, { signal: request.signal });
      })();
      return pending;
    },
    async finish() {
      const ctx = await pending?.catch(() => undefined);
      if (ctx) await releaseHold(app, ctx.caller);
    },
  };
}
