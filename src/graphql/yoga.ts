import { useGraphQLSSE } from '@graphql-yoga/plugin-graphql-sse';
import { createYoga } from 'graphql-yoga';
import type { AppServices } from '../app/services.js';
import { buildGraphQLContext, type GraphQLContext } from './context.js';
import { toGraphQLError } from './errors.js';
import { getSchema } from './schema.js';

/** Yoga on `/graphql` (GraphiQL included) with the graphql-sse protocol on `/graphql/stream`. */
export function createGraphQLServer(app: AppServices) {
  return createYoga<Record<string, unknown>, GraphQLContext>({
    schema: getSchema(),
    graphqlEndpoint: '/graphql',
    landingPage: false,
    graphiql: { title: 'svc console API' },
    logging: false,
    context: ({ request }) => buildGraphQLContext(app, request),
    maskedErrors: { maskError: (error) => toGraphQLError(error, app.log) },
    plugins: [useGraphQLSSE()],
  });
}
