import SchemaBuilder from '@pothos/core';
import DataloaderPlugin from '@pothos/plugin-dataloader';
import { GraphQLError } from 'graphql';
import { MAX_JSON_DEPTH, withinJsonDepth } from '../lib/json-depth.js';
import type { GraphQLContext } from './context.js';

export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  Scalars: { JSON: { Input: unknown; Output: unknown } };
  DefaultFieldNullability: false;
}>({
  plugins: [DataloaderPlugin],
  defaultFieldNullability: false,
});

builder.scalarType('JSON', {
  description: `Arbitrary JSON value, nested at most ${MAX_JSON_DEPTH} levels`,
  serialize: (v) => v,
  parseValue: (v) => {
    if (!withinJsonDepth(v, MAX_JSON_DEPTH)) {
      throw new GraphQLError(`JSON values may nest at most ${MAX_JSON_DEPTH} levels`, {
        extensions: { code: 'json_too_deep', status: 400, http: { spec: true, status: 400 } },
      });
    }
    return v;
  },
});

builder.queryType({});
builder.mutationType({});
builder.subscriptionType({});
