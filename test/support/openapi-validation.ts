import AjvModule, { type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

/*
 * Every response a test receives through the suite's HTTP helpers (api.ts, the official clients of
 * gateway.ts) is checked against the running server's own /openapi.json: its status must be documented
 * for the operation, and a JSON body must validate against the schema documented for that status. A
 * request the description has no operation for (GraphQL, an unknown path the test calls on purpose)
 * is not checked. On for the whole suite; `SVC_TEST_OPENAPI=off` turns it off (to tell a schema problem
 * from a behaviour one).
 */

export const OPENAPI_CHECK = process.env.SVC_TEST_OPENAPI !== 'off';

// ajv ships CommonJS: under NodeNext the default import is `module.exports`, whose `default` is the class.
const Ajv = AjvModule.default;
const addFormats = addFormatsModule.default;

type Json = Record<string, unknown>;

interface Operation {
  method: string;
  template: string;
  pattern: RegExp;
  params: number;
  responses: Record<string, { content?: Record<string, { schema?: Json }> }>;
}

interface Described {
  operations: Operation[];
  validators: Map<string, ValidateFunction>;
  ajv: InstanceType<typeof Ajv>;
}

const documents = new Map<string, Promise<Described | undefined>>();

/** Forgets the documents read and the mismatches found (test/support/per-file.ts, before each test file). */
export function resetOpenApiValidation(): void {
  documents.clear();
  openApiFailures.length = 0;
}

/**
 * OpenAPI 3.0 schema objects as JSON Schema (draft-07) for ajv: `nullable` becomes a `null` type,
 * the boolean `exclusiveMinimum` / `exclusiveMaximum` their numeric form, component references the
 * component schemas registered by name.
 */
function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (!node || typeof node !== 'object') return node;
  const src = node as Json;
  const out: Json = {};
  for (const [k, v] of Object.entries(src)) {
    if (k === 'nullable' || k === 'discriminator' || k === 'example') continue;
    out[k] = k === 'enum' || k === 'const' || k === 'default' ? v : toJsonSchema(v);
  }
  if (typeof out.$ref === 'string' && out.$ref.startsWith('#/components/schemas/')) out.$ref = `openapi:${out.$ref.slice('#/components/schemas/'.length)}`;
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof out[flag] === 'boolean') {
      if (out[flag] && typeof out[bound] === 'number') {
        out[flag] = out[bound];
        delete out[bound];
      } else delete out[flag];
    }
  }
  if (src.nullable === true) {
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    else return { anyOf: [out, { type: 'null' }] };
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  }
  return out;
}

type Document = { paths: Record<string, Record<string, Operation['responses'] | Json>>; components?: { schemas?: Record<string, Json> } };

/**
 * The server's own description. A test harness that mounts a few routers of its own (no /openapi.json:
 * test/support/usage-server.ts) describes no API and is not checked.
 */
async function describe(baseUrl: string): Promise<Described | undefined> {
  const res = await fetch(`${baseUrl}/openapi.json`);
  if (res.status !== 200) {
    await res.body?.cancel();
    return undefined;
  }
  const doc = (await res.json()) as Document;
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) ajv.addSchema(toJsonSchema(schema) as Json, `openapi:${name}`);
  const operations: Operation[] = [];
  for (const [template, methods] of Object.entries(doc.paths)) {
    const params = (template.match(/\{[^}]+\}/g) ?? []).length;
    const pattern = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}$`);
    for (const [method, op] of Object.entries(methods)) {
      operations.push({ method: method.toUpperCase(), template, pattern, params, responses: (op as { responses: Operation['responses'] }).responses });
    }
  }
  // Literal segments win over parameters (`/v1/messages/count_tokens` before `/v1/messages/{id}`).
  operations.sort((a, b) => a.params - b.params);
  return { operations, validators: new Map(), ajv };
}

/** The problem with a response, or undefined when it is documented and matches its schema. */
export async function openApiProblem(
  baseUrl: string,
  method: string,
  url: string,
  status: number,
  contentType: string | null,
  body: () => unknown,
): Promise<string | undefined> {
  let described = documents.get(baseUrl);
  if (!described) {
    described = describe(baseUrl);
    documents.set(baseUrl, described);
  }
  const description = await described;
  if (!description) return undefined;
  const { operations, validators, ajv } = description;
  const raw = url.split('?')[0];
  let path = raw;
  try {
    path = decodeURI(raw);
  } catch {
    // A test sending a malformed escape on purpose: matched as sent.
  }
  const op = operations.find((o) => o.method === method.toUpperCase() && o.pattern.test(path));
  if (!op) return undefined;
  const where = `${method.toUpperCase()} ${op.template} answered ${status}`;
  const documented = op.responses[String(status)];
  if (!documented) return `${where}, a status /openapi.json does not document for it (documented: ${Object.keys(op.responses).join(', ')})`;
  const schema = documented.content?.['application/json']?.schema;
  if (!schema || !/json/i.test(contentType ?? '')) return undefined;
  const key = `${op.method} ${op.template} ${status}`;
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile(toJsonSchema(schema) as Json);
    validators.set(key, validate);
  }
  const value = body();
  if (validate(value)) return undefined;
  const errors = (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '(body)'} ${e.message ?? ''} ${e.params ? JSON.stringify(e.params) : ''}`);
  return `${where} with a body that does not match its documented schema: ${errors.join('; ')}; body: ${JSON.stringify(value).slice(0, 500)}`;
}

/**
 * A `fetch` for the official clients and the AI SDK: each response is checked (a stream's status only),
 * and a mismatch fails the test (thrown as the client's connection error, which no test expects).
 */
export function checkedFetch(baseUrl: string): typeof fetch {
  return async (input, init) => {
    const res = await fetch(input, init);
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!OPENAPI_CHECK || !url.startsWith(baseUrl)) return res;
    const method = init?.method ?? (typeof input === 'object' && 'method' in input ? input.method : 'GET');
    const contentType = res.headers.get('content-type');
    const json = /json/i.test(contentType ?? '') ? await res.clone().text() : undefined;
    const problem = await openApiProblem(baseUrl, method, url.slice(baseUrl.length), res.status, contentType, () => (json ? JSON.parse(json) : undefined));
    if (problem) {
      openApiFailures.push(problem);
      throw new Error(`OpenAPI mismatch: ${problem}`);
    }
    return res;
  };
}

/** Every mismatch the checked fetch found, so that a test expecting an error cannot swallow one. */
export const openApiFailures: string[] = [];

/** For the helpers that read a response themselves (api.ts, sse.ts, knowledge.ts): throws on a mismatch when the check is on. */
export async function assertDocumented(baseUrl: string, method: string, path: string, res: { status: number; headers: Headers }, body: () => unknown): Promise<void> {
  if (!OPENAPI_CHECK) return;
  const problem = await openApiProblem(baseUrl, method, path, res.status, res.headers.get('content-type'), body);
  if (problem) throw new Error(`OpenAPI mismatch: ${problem}`);
}
