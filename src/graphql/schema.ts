import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { builder } from './builder.js';
import '../modules/workspaces/workspaces.graphql.js';
import '../modules/agents/agents.graphql.js';

let built: GraphQLSchema | undefined;

export function getSchema(): GraphQLSchema {
  built ??= builder.toSchema();
  return built;
}

export const printSdl = (): string => printSchema(lexicographicSortSchema(getSchema())) + '\n';
