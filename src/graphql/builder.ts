import SchemaBuilder from '@pothos/core';
import DataloaderPlugin from '@pothos/plugin-dataloader';
import { GraphQLRefusalCode, graphqlRefusal } from '../errors/index.js';
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
      throw graphqlRefusal(`JSON values may nest at most ${MAX_JSON_DEPTH} levels`, GraphQLRefusalCode.jsonTooDeep, { http: { spec: true, status: 400 } });
    }
    return v;
  },
});

builder.queryType({});
builder.mutationType({});
builder.subscriptionType({});
