import type { IncomingMessage, ServerResponse } from 'node:http';
import { EnvelopArmor } from '@escape.tech/graphql-armor';
import { useGraphQLSSE } from '@graphql-yoga/plugin-graphql-sse';
import { GraphQLError } from 'graphql';
import { createYoga, type Plugin } from 'graphql-yoga';
import type { Deps } from '../core/deps.js';
import { GraphQLRefusalCode, graphqlError, illFormedTextError } from '../errors/index.js';
import { firstIllFormedText } from '../lib/well-formed-text.js';
import type { Logger } from '../lib/logger.js';
import { buildGraphQLContext, type GraphQLContext } from './context.js';
import { toGraphQLError } from './errors.js';
import { graphqlHttpGuard } from './http-guard.js';
import { GRAPHQL_LIMITS } from './limits.js';
import { limitedFieldsOncePerOperation } from './root-fields.js';
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

const limitedFields: Plugin = {
  onValidate: ({ addValidationRule }) => addValidationRule(limitedFieldsOncePerOperation),
};

/**
 * A refused document: `extensions.code` (unless it has one) and status 400. On the wire it is a 400 for
 * clients accepting application/graphql-response+json, and a 200 for legacy application/json clients,
 * as GraphQL over HTTP asks of request errors.
 */
function badDocument(error: GraphQLError, code: GraphQLRefusalCode): void {
  const extensions = error.extensions as Record<string, unknown>;
  extensions.code ??= code;
  extensions.status ??= 400;
  extensions.http ??= { spec: true, status: 400 };
}

/**
 * A result without `data` is a request error raised before any resolver (variables that do not coerce to
 * their types, an unknown `operationName`): GraphQL over HTTP makes it a 4xx, as a validation error.
 */
function badRequestResult(result: unknown): void {
  if (!result || typeof result !== 'object' || Symbol.asyncIterator in result || 'data' in result) return;
  for (const error of (result as { errors?: readonly GraphQLError[] }).errors ?? []) {
    // Yoga marks these 400 for every client; as for the document's own errors, legacy JSON clients get a 200.
    (error.extensions as Record<string, unknown>).http = { spec: true, status: 400 };
    badDocument(error, GraphQLRefusalCode.validationFailed);
  }
}

/**
 * Text that is not well-formed Unicode (a lone surrogate) in the document or its variables is refused
 * before parsing, as REST refuses it in a body (rest/index.ts): it could not be stored as sent.
 */
const wellFormedParams: Plugin = {
  onParams: ({ params, setResult }) => {
    const path = firstIllFormedText({ query: params.query, variables: params.variables, operationName: params.operationName });
    if (!path) return;
    const error = graphqlError(illFormedTextError(path));
    Object.assign(error.extensions, { http: { spec: true, status: 400 } });
    setResult({ errors: [error] });
  },
};

/** Syntax and validation errors of GraphQL itself, and request errors, get a code like every other refusal. */
const codedDocumentErrors: Plugin = {
  onParse: () => ({ result }) => {
    if (result instanceof GraphQLError) badDocument(result, GraphQLRefusalCode.parseFailed);
  },
  onValidate: () => ({ result }) => {
    for (const error of result) badDocument(error, GraphQLRefusalCode.validationFailed);
  },
  onExecute: () => ({ onExecuteDone: ({ result }) => badRequestResult(result) }),
  onSubscribe: () => ({ onSubscribeResult: ({ result }) => badRequestResult(result) }),
};


/** Armor's plugins; each refusal gets its code and an info log line (`GraphQL document refused`). */
function armorPlugins(log: Logger) {
  const coded =
    (code: GraphQLRefusalCode) =>
    (_ctx: unknown, error: GraphQLError): void => {
      badDocument(error, code);
      log.info({ code, reason: error.message }, 'GraphQL document refused');
    };
  return new EnvelopArmor({
    maxTokens: { n: GRAPHQL_LIMITS.tokens, onReject: [coded(GraphQLRefusalCode.tooManyTokens)] },
    maxAliases: { n: GRAPHQL_LIMITS.aliases, onReject: [coded(GraphQLRefusalCode.tooManyAliases)] },
    maxDepth: { n: GRAPHQL_LIMITS.depth, onReject: [coded(GraphQLRefusalCode.tooDeep)] },
    maxDirectives: { n: GRAPHQL_LIMITS.directives, onReject: [coded(GraphQLRefusalCode.tooManyDirectives)] },
    costLimit: { maxCost: GRAPHQL_LIMITS.cost, onReject: [coded(GraphQLRefusalCode.tooCostly)] },
    blockFieldSuggestion: { enabled: true },
  }).protect().plugins;
}

/**
 * Yoga on `/graphql` (GraphiQL included) with the graphql-sse protocol on `/graphql/stream`, behind the
 * HTTP guard (CORS for trusted origins, queries only over GET, JSON bodies within `bodyLimit`). Root fields go through the request pipeline
 * (`root-fields.ts`); the operation's request scope is disposed of when its result or stream ends.
 */
export function createGraphQLServer(app: Deps) {
  const yoga = createYoga<{ req?: IncomingMessage & { ip?: string } }, GraphQLContext>({
    schema: getSchema(),
    graphqlEndpoint: '/graphql',
    landingPage: false,
    graphiql: { title: 'svc console API' },
    logging: false,
    context: ({ request, params, req }) => buildGraphQLContext(app, request, params, req?.ip),
    // CORS is answered by the HTTP guard (trusted origins only), never by yoga, which reflects any origin.
    cors: false,
    maskedErrors: { maskError: (error) => toGraphQLError(error, app.log) },
    plugins: [...armorPlugins(app.log), wellFormedParams, limitedFields, codedDocumentErrors, useGraphQLSSE(), finishOperations],
  });
  const guard = graphqlHttpGuard(app);
  return {
    graphqlEndpoint: yoga.graphqlEndpoint,
    requestListener: (req: IncomingMessage, res: ServerResponse): void => guard(req, res, () => void yoga.requestListener(req, res)),
  };
}
