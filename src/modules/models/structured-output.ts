import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { errors } from '../../errors/index.js';
import { extractJsonObject } from './json-output.js';
import type { ResponseFormat } from './provider.js';

/*
 * Structured output (`response_format`, `text.format`): the JSON Schema of a `json_schema` format is
 * checked with ajv (draft 2020-12, which also reads the draft-07 schemas most clients send), the
 * answer of a model that was asked for it is validated against it, and a model that writes no JSON by
 * itself (the built-in local model, an agent's turn) gets its answer cast into an instance of it.
 */

// ajv ships CommonJS: under NodeNext the default import is `module.exports`, whose `default` is the class.
const Ajv2020 = Ajv2020Module.default;
const addFormats = addFormatsModule.default;

const ajv = new Ajv2020({ strict: false, allErrors: false, validateSchema: true });
addFormats(ajv);

type Schema = Record<string, unknown>;

/** The schema without its `$schema` (a draft-07 URI is not a meta-schema this ajv instance holds). */
function compilable(schema: Schema): Schema {
  const { $schema: _ignored, ...rest } = schema;
  return rest;
}

const describe = (errs: ErrorObject[] | null | undefined): string =>
  (errs ?? [])
    .slice(0, 3)
    .map((e) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`)
    .join('; ');

/**
 * Compiled validators by the schema's JSON text, most recently used last; at most COMPILED_MAX kept. The
 * one ajv instance is shared by every caller, so nothing a caller sends may stay registered in it: a
 * schema is removed from ajv as soon as it is compiled (its `$id` would otherwise refuse the next schema
 * with the same `$id`, the same caller's next call included, and every compiled schema would stay in
 * ajv's cache for the life of the process).
 */
const compiled = new Map<string, ValidateFunction>();
const COMPILED_MAX = 256;

/** Removes a caller's schema from the shared ajv (a malformed `$id` it could not register is nothing to remove). */
function forget(schema: Schema): void {
  try {
    ajv.removeSchema(schema);
  } catch {
    // nothing was registered under it
  }
}

/** Compiles a format's schema; an invalid one is a 400 naming `field` (the caller's wire path). */
export function compileFormat(format: Extract<ResponseFormat, { type: 'json_schema' }>, field: string): ValidateFunction {
  const schema = compilable(format.schema);
  const key = JSON.stringify(schema);
  const hit = compiled.get(key);
  if (hit) {
    compiled.delete(key);
    compiled.set(key, hit);
    return hit;
  }
  let validate: ValidateFunction;
  try {
    validate = ajv.compile(schema);
  } catch (err) {
    throw errors.validation(field, `${field} is not a valid JSON Schema: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    forget(schema);
  }
  compiled.set(key, validate);
  if (compiled.size > COMPILED_MAX) compiled.delete(compiled.keys().next().value!);
  return validate;
}

/** Checks the format when the request is read, so that a bad schema is refused before any model runs. */
export function checkResponseFormat(format: ResponseFormat | undefined, field: string): void {
  if (format?.type === 'json_schema') compileFormat(format, field);
}

/**
 * A model's answer to a structured request: the JSON it wrote (cut out of fences or prose when
 * needed) when it is an object (`json_object`) or valid against the schema (`json_schema`). Anything
 * else is a 500 in the caller's dialect: the caller asked for JSON and never gets prose instead.
 */
export function conformingJson(text: string, format: ResponseFormat): string {
  const json = extractJsonObject(text);
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw errors.internal('The model did not answer with JSON although response_format asked for it');
  }
  if (format.type === 'json_object') {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw errors.internal('The model did not answer with a JSON object although response_format asked for one');
    }
    return json;
  }
  const validate = compileFormat(format, 'response_format');
  if (!validate(value)) throw errors.internal(`The model's JSON does not match the response_format schema: ${describe(validate.errors)}`);
  return JSON.stringify(value);
}

/**
 * For a model that writes no JSON by itself (the local model, an agent turn): its text answer as an
 * instance of the format, then validated like any model's answer. `json_object` gives
 * `{ "answer": text }`; a schema is filled in: every string with the answer (held within its length
 * bounds), numbers at their lower bound or 0, booleans false, the first of an `enum`, `const` as is,
 * arrays with one item (or their minimum). A schema this cannot satisfy (a `pattern`, say) is a 400
 * naming `field`: the answering model cannot honour it.
 */
export function jsonFromAnswer(text: string, format: ResponseFormat, field = 'response_format'): string {
  if (format.type === 'json_object') return JSON.stringify({ answer: text });
  const validate = compileFormat(format, field);
  const value = instanceOf(format.schema, format.schema, text, 0);
  if (!validate(value)) {
    throw errors.validation(field, `The answering model writes no JSON of its own and cannot fill this schema: ${describe(validate.errors)}`);
  }
  return JSON.stringify(value);
}

const MAX_DEPTH = 32;

function resolveRef(root: Schema, ref: string): Schema {
  if (!ref.startsWith('#')) return {};
  const parts = ref
    .slice(1)
    .split('/')
    .filter(Boolean)
    .map((p) => decodeURIComponent(p).replace(/~1/g, '/').replace(/~0/g, '~'));
  let node: unknown = root;
  for (const p of parts) node = node && typeof node === 'object' ? (node as Schema)[p] : undefined;
  return node && typeof node === 'object' ? (node as Schema) : {};
}

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

function stringFor(schema: Schema, text: string): string {
  const format = typeof schema.format === 'string' ? schema.format : undefined;
  const byFormat: Record<string, string> = {
    'date-time': '1970-01-01T00:00:00Z',
    date: '1970-01-01',
    time: '00:00:00Z',
    email: 'unknown@example.invalid',
    uri: 'about:blank',
    url: 'about:blank',
    uuid: '00000000-0000-0000-0000-000000000000',
  };
  let s = format && byFormat[format] !== undefined ? byFormat[format] : text;
  const max = num(schema.maxLength);
  const min = num(schema.minLength) ?? 0;
  if (max !== undefined && [...s].length > max) s = [...s].slice(0, max).join('');
  if ([...s].length < min) s = s.padEnd(min, ' ');
  return s;
}

function numberFor(schema: Schema, integer: boolean): number {
  const min = num(schema.minimum);
  const exclusiveMin = num(schema.exclusiveMinimum);
  const max = num(schema.maximum);
  let n = min ?? (exclusiveMin !== undefined ? exclusiveMin + (integer ? 1 : Number.EPSILON * Math.max(1, Math.abs(exclusiveMin))) : 0);
  if (max !== undefined && n > max) n = max;
  return integer ? Math.ceil(n) : n;
}

function instanceOf(schema: Schema, root: Schema, text: string, depth: number): unknown {
  if (depth > MAX_DEPTH) return null;
  if (typeof schema.$ref === 'string') return instanceOf({ ...resolveRef(root, schema.$ref), ...omit(schema, '$ref') }, root, text, depth + 1);
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options) && options.length > 0) {
      const preferred = (options as Schema[]).find((o) => o.type !== 'null') ?? (options[0] as Schema);
      return instanceOf({ ...omit(schema, key), ...preferred }, root, text, depth + 1);
    }
  }
  if (Array.isArray(schema.allOf)) {
    const merged = (schema.allOf as Schema[]).reduce<Schema>((acc, s) => mergeSchemas(acc, s), omit(schema, 'allOf'));
    return instanceOf(merged, root, text, depth + 1);
  }
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : typeof schema.type === 'string' ? [schema.type] : [];
  const type = types.find((t) => t !== 'null') ?? types[0] ?? (schema.properties ? 'object' : schema.items ? 'array' : 'string');
  switch (type) {
    case 'object': {
      const props = (schema.properties ?? {}) as Record<string, Schema>;
      const out: Record<string, unknown> = {};
      for (const [name, prop] of Object.entries(props)) out[name] = instanceOf(prop, root, text, depth + 1);
      return out;
    }
    case 'array': {
      const items = (schema.items && typeof schema.items === 'object' ? schema.items : {}) as Schema;
      const prefix = Array.isArray(schema.prefixItems) ? (schema.prefixItems as Schema[]) : [];
      const max = num(schema.maxItems);
      const count = Math.max(num(schema.minItems) ?? 0, prefix.length, max === 0 ? 0 : 1);
      return Array.from({ length: max !== undefined ? Math.min(count, max) : count }, (_, i) =>
        instanceOf(prefix[i] ?? items, root, text, depth + 1),
      );
    }
    case 'integer':
      return numberFor(schema, true);
    case 'number':
      return numberFor(schema, false);
    case 'boolean':
      return false;
    case 'null':
      return null;
    default:
      return stringFor(schema, text);
  }
}

function omit(schema: Schema, key: string): Schema {
  const { [key]: _ignored, ...rest } = schema;
  return rest;
}

function mergeSchemas(a: Schema, b: Schema): Schema {
  const props = { ...((a.properties ?? {}) as Schema), ...((b.properties ?? {}) as Schema) };
  return { ...a, ...b, ...(Object.keys(props).length ? { properties: props } : {}) };
}
