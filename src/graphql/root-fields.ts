import {
  Kind,
  type GraphQLField,
  type GraphQLFieldResolver,
  type GraphQLObjectType,
  type GraphQLSchema,
  type SelectionSetNode,
  type ValidationRule,
} from 'graphql';
import type { Operation } from '../core/operation.js';
import { GraphQLRefusalCode, graphqlRefusal } from '../errors/index.js';
import { targetOf, type AdmitTarget, type Needs } from '../pipeline/operation.js';
import { settleRequestRates } from '../pipeline/pipeline.js';
import type { GraphQLContext } from './context.js';

type Args = Record<string, unknown>;

const OPERATION = 'svcOperation';

/** What a root field exposes: one declared operation, or one of several chosen by its arguments. */
export interface FieldOperations {
  /** Every operation the field may run (their needs must agree but for the bucket). */
  all: readonly Operation[];
  pick: (args: Args) => Operation;
}

/**
 * Set as a root field's `extensions`: the declared operation (src/core/operation.ts) it exposes, whose
 * needs the pipeline admits the field with (`t.field({ ..., extensions: operationField(createAgent) })`);
 * with `pick`, the operation depends on the arguments (chat with or without an agent).
 */
export function operationField(op: Operation): Record<string, unknown>;
export function operationField(all: readonly Operation[], pick: (args: Args) => Operation): Record<string, unknown>;
export function operationField(op: Operation | readonly Operation[], pick?: (args: Args) => Operation): Record<string, unknown> {
  const ops: FieldOperations = Array.isArray(op) ? { all: op, pick: pick! } : { all: [op as Operation], pick: () => op as Operation };
  return { [OPERATION]: ops };
}

type FieldLike = { name: string; extensions?: Readonly<Record<string, unknown>> | null };

/** The operations a root field exposes (none: it declares none). */
export const operationsOf = (field: FieldLike): FieldOperations | undefined => field.extensions?.[OPERATION] as FieldOperations | undefined;

const needsOf = (field: FieldLike): Needs => operationsOf(field)?.all[0]?.needs ?? {};

/**
 * What the pipeline admits a root field as: its declared operation (its REST route's bucket, so a ceiling
 * is one count across the APIs, and its needs); a field that declares none (test/platform/operations.test.ts
 * lists them) counts against the caller's own rates only.
 */
function operationOf(type: GraphQLObjectType, field: FieldLike, args: Args): AdmitTarget {
  const ops = operationsOf(field);
  return ops ? targetOf(ops.pick(args)) : { name: `graphql ${type.name}.${field.name}`, needs: {} };
}

/** A refusal before a subscription's stream: the single item of its stream, thrown by `resolve`. */
class Refusal {
  constructor(readonly error: unknown) {}
}

async function* refusalStream(error: unknown): AsyncGenerator<Refusal> {
  yield new Refusal(error);
}

/** The context a root field's resolver sees: `service()` is the field's own admitted context. */
const forField = (ctx: GraphQLContext, admitted: GraphQLContext['service']): GraphQLContext => ({ ...ctx, service: admitted });

/**
 * Runs every root field (queries, mutations, subscriptions) through the request pipeline before its
 * resolver: each counts one request against the key's `ratePerMinute` and, when declared, against its
 * route-level ceiling; its declared scope and read-only checks follow. A refused field is an error of
 * that field (with `retryAfter`); the other fields of the operation are answered as usual.
 */
export function admitRootFields(schema: GraphQLSchema): GraphQLSchema {
  const subscription = schema.getSubscriptionType();
  for (const type of [schema.getQueryType(), schema.getMutationType(), subscription]) {
    if (!type) continue;
    for (const field of Object.values(type.getFields()) as GraphQLField<unknown, GraphQLContext>[]) {
      const resolve = field.resolve as GraphQLFieldResolver<unknown, GraphQLContext> | undefined;
      if (type === subscription && field.subscribe) {
        const subscribe = field.subscribe;
        field.subscribe = async (root, args, ctx, info) => {
          let admitted;
          try {
            admitted = await ctx.admit(operationOf(type, field, args));
          } catch (err) {
            return refusalStream(err);
          }
          return subscribe(root, args, forField(ctx, () => Promise.resolve(admitted)), info);
        };
        field.resolve = (payload, args, ctx, info) => {
          if (payload instanceof Refusal) throw payload.error;
          return resolve ? resolve(payload, args, ctx, info) : payload;
        };
      } else if (resolve) {
        field.resolve = async (root, args, ctx, info) => {
          const admitted = await ctx.admit(operationOf(type, field, args));
          try {
            return await resolve(root, args, forField(ctx, () => Promise.resolve(admitted)), info);
          } catch (err) {
            // Rates counted with the admission (`Needs.ratesWithAdmission`) and not counted yet: a 429 comes first.
            throw await settleRequestRates(admitted).then(() => err, (rateErr: unknown) => rateErr);
          }
        };
      }
    }
  }
  return schema;
}

/** Root fields of one selection set, through inline fragments and fragment spreads. */
function rootFieldNames(set: SelectionSetNode, fragment: (name: string) => SelectionSetNode | undefined, seen = new Set<string>()): string[] {
  return set.selections.flatMap((s) => {
    if (s.kind === Kind.FIELD) return [s.name.value];
    if (s.kind === Kind.INLINE_FRAGMENT) return rootFieldNames(s.selectionSet, fragment, seen);
    if (seen.has(s.name.value)) return [];
    seen.add(s.name.value);
    const spread = fragment(s.name.value);
    return spread ? rootFieldNames(spread, fragment, seen) : [];
  });
}

/**
 * A root field with a route-level ceiling (a chat turn, a knowledge search) appears at most once per
 * operation, as one REST request is one turn: aliasing it many times in one request is refused whole,
 * before anything runs, with `extensions.code` `limited_field_repeated`.
 */
export const limitedFieldsOncePerOperation: ValidationRule = (context) => ({
  OperationDefinition(node) {
    const root = context.getSchema().getRootType(node.operation);
    if (!root) return;
    const fields = root.getFields();
    const counts = new Map<string, number>();
    for (const name of rootFieldNames(node.selectionSet, (n) => context.getFragment(n)?.selectionSet)) {
      counts.set(name, (counts.get(name) ?? 0) + 1);
    }
    for (const [name, count] of counts) {
      const field = fields[name];
      if (count > 1 && field && needsOf(field).rateLimit) {
        context.reportError(
          graphqlRefusal(`${name} has a request ceiling and may appear once per operation (found ${count})`, GraphQLRefusalCode.limitedFieldRepeated, { field: name }, node),
        );
      }
    }
  },
});
