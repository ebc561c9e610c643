import { Client, cacheExchange, fetchExchange, mapExchange, subscriptionExchange } from 'urql';
import { createClient as createSseClient, type Client as SseClient } from 'graphql-sse';
import { isSignedOut } from './lib/errors.js';

/**
 * GraphQL only: queries and mutations on /graphql, subscriptions over graphql-sse on /graphql/stream
 * (one connection per subscription). The session cookie goes along (same origin) and the browser adds
 * `Origin` to every POST, which is what the CSRF check of the service wants.
 */
export function createSse(): SseClient {
  return createSseClient({ url: '/graphql/stream', credentials: 'same-origin', retryAttempts: 0 });
}

export function createConsoleClient(sse: SseClient, onSignedOut: () => void): Client {
  return new Client({
    url: '/graphql',
    preferGetMethod: false,
    requestPolicy: 'cache-and-network',
    fetchOptions: { credentials: 'same-origin' },
    exchanges: [
      cacheExchange,
      mapExchange({
        onError(error) {
          if (isSignedOut(error)) onSignedOut();
        },
      }),
      fetchExchange,
      subscriptionExchange({
        forwardSubscription: (request) => ({
          subscribe: (sink) => ({ unsubscribe: sse.subscribe({ ...request, query: request.query ?? '' }, sink) }),
        }),
      }),
    ],
  });
}
