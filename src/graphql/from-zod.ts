import type { EnumRef, InputObjectRef, ObjectRef } from '@pothos/core';
import { z } from 'zod';
import { builder } from './builder.js';

/**
 * GraphQL types derived from the modules' zod schemas, so a field is declared once (docs/architecture.md,
 * "One shape per resource"). The zod schema stays the validator: services parse the same input with it,
 * and the GraphQL type only says which fields exist, their types and which ones may be left out.
 *
 * string → String (a DTO's `id` → ID), int → Int, number → Float, boolean → Boolean, enum → a GraphQL
 * enum, array → list, object → a nested type, record / unknown / any / union → the `JSON` scalar. A field
 * is non-null when the schema requires it: optional, nullable and (on inputs) defaulted fields are nullable.
 */

type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;
type Scalar = 'String' | 'Int' | 'Float' | 'Boolean' | 'ID' | 'JSON';

export type DerivedInputType = Scalar | InputObjectRef<Types, unknown> | EnumRef<Types, string>;
export type DerivedOutputType = Scalar | ObjectRef<Types, unknown> | EnumRef<Types, string>;

type Side = 'input' | 'output';
type Leaf<S extends Side> = S extends 'input' ? DerivedInputType : DerivedOutputType;

export interface DeriveOptions<Shape extends z.core.$ZodShape, S extends Side> {
  description?: string;
  /** Descriptions of fields, by key (a zod `.describe()` is used when none is given). */
  descriptions?: Partial<Record<keyof Shape & string, string>>;
  /**
   * The name of a field's enum type, or of its nested object type (`Input` is appended on inputs). The
   * default is this type's name (without `Input`) plus the key.
   */
  names?: Partial<Record<keyof Shape & string, string>>;
  /** The type of a field given outright (the list and the nullability still come from the schema). */
  types?: Partial<Record<keyof Shape & string, Leaf<S>>>;
}

interface Unwrapped {
  schema: z.core.$ZodType;
  nullable: boolean;
}

type Wrapper = z.core.$ZodType & { _zod: { def: { innerType: z.core.$ZodType } } };

/** Strips optional, nullable, default, pipe (its input side on inputs), readonly and lazy wrappers. */
function unwrap(schema: z.core.$ZodType, side: Side): Unwrapped {
  let current = schema;
  let nullable = false;
  for (;;) {
    const def = current._zod.def;
    switch (def.type) {
      case 'optional':
      case 'nullable':
        nullable = true;
        current = (current as Wrapper)._zod.def.innerType;
        break;
      case 'default':
      case 'prefault':
      case 'catch':
        // A default fills the field on the way in; the value read back always has it.
        if (side === 'input') nullable = true;
        current = (current as Wrapper)._zod.def.innerType;
        break;
      case 'nonoptional':
      case 'readonly':
        current = (current as Wrapper)._zod.def.innerType;
        break;
      case 'pipe': {
        const pipe = (current as z.core.$ZodPipe)._zod.def;
        current = side === 'input' || pipe.out._zod.def.type === 'transform' ? pipe.in : pipe.out;
        break;
      }
      case 'lazy':
        current = (current as z.core.$ZodLazy)._zod.def.getter();
        break;
      default:
        return { schema: current, nullable };
    }
  }
}

const INT_FORMATS = new Set(['safeint', 'int32', 'uint32']);
const isInt = (schema: z.core.$ZodType): boolean =>
  (schema._zod.def.checks ?? []).some((check) => INT_FORMATS.has((check._zod.def as { format?: string }).format ?? ''));

const pascal = (key: string) => key.charAt(0).toUpperCase() + key.slice(1);

/** Types made so far, by name: two schemas may share a nested type only if they share its zod source. */
const made = new Map<string, { source: unknown; ref: unknown }>();

function once<R>(name: string, source: unknown, make: () => R): R {
  const known = made.get(name);
  if (known) {
    if (known.source !== source) throw new Error(`GraphQL type ${name} is derived from two different zod schemas`);
    return known.ref as R;
  }
  const ref = make();
  made.set(name, { source, ref });
  return ref;
}

function enumOf(name: string, schema: z.core.$ZodEnum): EnumRef<Types, string> {
  const values = Object.values(schema._zod.def.entries).map(String);
  return once(name, values.join('|'), () => builder.enumType(name, { values }));
}

interface Field<S extends Side> {
  type: Leaf<S>;
  /** Whether the field is a list of `type`, and whether the list's items may be null. */
  list: boolean;
  itemsNullable: boolean;
  nullable: boolean;
}

/** Where nested types of a field are named from, and an override for its leaf type. */
interface Naming<S extends Side> {
  name: string;
  given?: Leaf<S>;
}

function leaf<S extends Side>(schema: z.core.$ZodType, side: S, naming: Naming<S>): Leaf<S> {
  if (naming.given) return naming.given;
  const def = schema._zod.def;
  switch (def.type) {
    case 'string':
      return 'String';
    case 'number':
      return isInt(schema) ? 'Int' : 'Float';
    case 'boolean':
      return 'Boolean';
    case 'enum':
      return enumOf(naming.name, schema as z.core.$ZodEnum);
    case 'object':
      return (
        side === 'input'
          ? inputOf(`${naming.name}Input`, schema as z.core.$ZodObject, {})
          : objectOf(naming.name, schema as z.core.$ZodObject, {})
      ) as Leaf<S>;
    case 'record':
    case 'unknown':
    case 'any':
    case 'union':
      return 'JSON';
    default:
      throw new Error(`No GraphQL type for the zod type "${def.type}" of ${naming.name}`);
  }
}

/** Whether a value may be null or absent: wrapped in optional or nullable, or unknown / any. */
const mayBeNull = (u: Unwrapped) => u.nullable || ['unknown', 'any'].includes(u.schema._zod.def.type);

function fieldOf<S extends Side>(schema: z.core.$ZodType, side: S, naming: Naming<S>): Field<S> {
  const outer = unwrap(schema, side);
  const nullable = mayBeNull(outer);
  if (outer.schema._zod.def.type !== 'array') return { type: leaf(outer.schema, side, naming), list: false, itemsNullable: false, nullable };
  const item = unwrap((outer.schema as z.core.$ZodArray)._zod.def.element, side);
  return { type: leaf(item.schema, side, naming), list: true, itemsNullable: mayBeNull(item), nullable };
}

function fieldsOf<S extends Side>(
  base: string,
  schema: z.core.$ZodObject,
  side: S,
  options: DeriveOptions<z.core.$ZodShape, S>,
): [string, Field<S>, string | undefined][] {
  return Object.entries(schema._zod.def.shape).map(([key, fieldSchema]) => {
    const naming: Naming<S> = { name: options.names?.[key] ?? `${base}${pascal(key)}`, given: options.types?.[key] };
    const field = fieldOf(fieldSchema, side, naming);
    if (side === 'output' && key === 'id' && field.type === 'String') field.type = 'ID' as Leaf<S>;
    const description = options.descriptions?.[key] ?? z.globalRegistry.get(fieldSchema)?.description;
    return [key, field, description];
  });
}

function inputOf(name: string, schema: z.core.$ZodObject, options: DeriveOptions<z.core.$ZodShape, 'input'>) {
  return once(name, schema, () => {
    const fields = fieldsOf(name.replace(/Input$/, ''), schema, 'input', options);
    return builder.inputType(name, {
      description: options.description,
      fields: (t) =>
        Object.fromEntries(
          fields.map(([key, f, description]) => [
            key,
            // The options are built at run time from the schema, which Pothos' static types cannot follow.
            t.field({
              type: f.list ? [f.type] : f.type,
              required: f.list ? { list: !f.nullable, items: !f.itemsNullable } : !f.nullable,
              description,
            } as never),
          ]),
        ),
    }) as InputObjectRef<Types, unknown>;
  });
}

function objectOf(name: string, schema: z.core.$ZodObject, options: DeriveOptions<z.core.$ZodShape, 'output'>) {
  return once(name, schema, () => {
    const fields = fieldsOf(name, schema, 'output', options);
    return builder.objectRef<Record<string, unknown>>(name).implement({
      description: options.description,
      fields: (t) =>
        Object.fromEntries(
          fields.map(([key, f, description]) => [
            key,
            // As for inputs: the options are built at run time from the schema, beyond Pothos' static types.
            t.field({
              type: f.list ? [f.type] : f.type,
              nullable: f.list ? { list: f.nullable, items: f.itemsNullable } : f.nullable,
              description,
              resolve: (parent: Record<string, unknown>) => parent[key] ?? null,
            } as never),
          ]),
        ),
    }) as ObjectRef<Types, unknown>;
  });
}

/**
 * The GraphQL input type of a request schema. Nested objects become input types named after the field
 * (`ChatInput.extraction` → `ChatExtractionInput`) unless `names` says otherwise.
 */
export function inputFromZod<S extends z.ZodObject>(
  name: string,
  schema: S,
  options: DeriveOptions<S['shape'], 'input'> = {},
): InputObjectRef<Types, z.input<S>> {
  return inputOf(name, schema, options) as InputObjectRef<Types, z.input<S>>;
}

/**
 * The GraphQL object type of a DTO schema; every field resolves to the property of the same name.
 * Computed fields are added by hand with `builder.objectFields(ref, ...)`.
 */
export function objectFromZod<S extends z.ZodObject>(
  name: string,
  schema: S,
  options: DeriveOptions<S['shape'], 'output'> = {},
): ObjectRef<Types, z.output<S>> {
  return objectOf(name, schema, options) as ObjectRef<Types, z.output<S>>;
}
