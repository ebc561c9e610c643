import { useGraphQLSSE } from '@graphql-yoga/plugin-graphql-sse';
import { createYoga, type Plugin } from 'graphql-yoga';
import type { AppServices } from '../app/services.js';
import { buildGraphQLContext, type GraphQLContext } from './context.js';
import { toGraphQLError } from './errors.js';
import { getSchema } from './schema.js';

/** Runs `finish()` of the operation's context once its result (or its subscription) has ended. */
const finishOperations: Plugin<GraphQLContext> = {
  onExecute: () => ({
    onExecuteDone: ({ args }) => {
      void (args.contextValue as GraphQLContext).finish();
    },
  }),
  onSubscribe: ({ args }) => {
    const finish = () => void (args.contextValue as GraphQLContext).finish();
    return { onSubscribeResult: () => ({ onEnd: finish }), onSubscribeError: finish };
  },
};

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
    plugins: [useGraphQLSSE(), finishOperations],
  });
}
