import { initGraphQLTada } from 'gql.tada';
import type { introspection } from './graphql-env.d.ts';

/** Typed operations from the service's schema.graphql (gql.tada; `npm run console:typecheck` regenerates the types). */
export const graphql = initGraphQLTada<{ introspection: introspection; scalars: { JSON: unknown; ID: string } }>();
export type { FragmentOf, ResultOf, VariablesOf } from 'gql.tada';
