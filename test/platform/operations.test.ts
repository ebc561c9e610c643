/**
 * An operation is declared once (issue 29 §1): every REST route and every GraphQL root field exposes a
 * declared operation (src/core/operation.ts), whose needs the pipeline admits the caller with, or is on an
 * explicit list below; a REST route and its GraphQL and MCP twins expose the same operation object.
 * `DUMP_OPERATIONS=/tmp/ops.json npx vitest run test/platform/operations.test.ts` writes the current lists
 * to that file, to update them after converting a family.
 */
import type { GraphQLField, GraphQLObjectType } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeRegistry, type AnyRoute } from '../../rest/route.js';
import type { Operation } from '../../src/core/operation.js';
import { operationsOf } from '../../src/graphql/root-fields.js';
import { getSchema } from '../../src/graphql/schema.js';
import { MCP_TOOLS } from '../../src/modules/mcp/mcp.tools.js';
import { startTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp(); // mounts every router: routeRegistry holds every route
});
afterAll(() => t.close());

/**
 * Public ways in: no key, so no capability to declare (the caller is the client's address; whatever else
 * authenticates the request — a password, a signature, a device code — is the handler's). Their ceilings
 * are declared on the route (`rateLimit`, counted per address).
 */
const PUBLIC_ROUTES = [
  // Health and readiness, the API description, the flow document's JSON schema: nothing of a workspace.
  'GET /health',
  'GET /ready',
  'GET /openapi.json',
  'GET /engine/flows/schema.json',
  // The metrics scrape: its own bearer token (SVC_METRICS_TOKEN), checked by the handler.
  'GET /metrics',
  // People before and around a session: the person is not known yet, or is known by the cookie the handler reads.
  'GET /auth/me',
  'GET /auth/set-password',
  'POST /auth/sign-in',
  'POST /auth/sign-out',
  'POST /auth/password',
  'POST /auth/password-reset',
  'POST /auth/password-reset/confirm',
  'POST /auth/invitations/accept',
  // Device pairing: the device has a code, not a key yet (per-address ceiling).
  'POST /partner/devices/code',
  'POST /partner/devices/token',
  // Signed deliveries from outside: Stripe's signature; a flow hook's signature, then the flow is admitted as the caller.
  'POST /partner/stripe/webhook',
  'POST /engine/hooks/:flowId',
  // The widget's script and its CORS preflights: a page of any site loads them.
  'GET /widget.js',
  'OPTIONS /widget/:publicId/chat',
  'OPTIONS /widget/:publicId/config',
];

/** Routes of the pipeline itself, not operations: the MCP endpoint (each tool is an operation). */
const PIPELINE_ROUTES = ['POST /mcp', 'GET /mcp', 'DELETE /mcp'];

/**
 * Not yet converted (issue 29 §1 still open for them): their needs are still declared on the route or
 * field itself (or, for a field, checked by the service only). The list is exact: a new route or field
 * without an operation fails, and so does a converted one left here.
 */
const UNDECLARED_ROUTES: string[] = [
];
const UNDECLARED_FIELDS: string[] = [];

const routeName = (r: AnyRoute) => `${r.method.toUpperCase()} ${r.path}`;

function rootFields(): { name: string; field: GraphQLField<unknown, unknown> }[] {
  const schema = getSchema();
  const types = [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].filter(Boolean) as GraphQLObjectType[];
  return types.flatMap((type) => Object.values(type.getFields()).map((field) => ({ name: `${type.name}.${field.name}`, field })));
}

describe('every way in exposes a declared operation', () => {
  it('every REST route has an operation, or is public, or is on the explicit lists', () => {
    if (process.env.DUMP_OPERATIONS) {
      const dump = {
        publicRoutes: routeRegistry.filter((r) => 'public' in r).map(routeName).sort(),
        routes: routeRegistry.filter((r) => !('public' in r) && !r.operation).map(routeName).sort(),
        fields: rootFields().filter(({ field }) => !operationsOf(field)).map(({ name }) => name).sort(),
      };
      require('node:fs').writeFileSync(process.env.DUMP_OPERATIONS, JSON.stringify(dump, null, 1));
    }
    const publicRoutes = routeRegistry.filter((r) => 'public' in r).map(routeName);
    const withoutOperation = routeRegistry.filter((r) => !('public' in r) && !r.operation).map(routeName);
    expect({ publicRoutes: publicRoutes.sort() }).toEqual({ publicRoutes: [...PUBLIC_ROUTES].sort() });
    expect(withoutOperation.sort()).toEqual([...PIPELINE_ROUTES, ...UNDECLARED_ROUTES].sort());
  });

  it('every MCP tool exposes a declared operation, the one of its REST twin', () => {
    expect(MCP_TOOLS.length).toBeGreaterThan(0);
    for (const tool of MCP_TOOLS) {
      expect(tool.operation, tool.name).toBeDefined();
      // Checked to be the very object of that route in 'REST, GraphQL and MCP twins share the same operation object'.
      expect(tool.operation.route, tool.name).toMatch(/^(GET|POST|PUT|PATCH|DELETE) \//);
    }
  });

  it('every GraphQL root field exposes an operation, or is on the explicit list', () => {
    const withoutOperation = rootFields()
      .filter(({ field }) => !operationsOf(field))
      .map(({ name }) => name);
    expect(withoutOperation.sort()).toEqual([...UNDECLARED_FIELDS].sort());
  });

  it('a route is mounted where its operation says, with its needs', () => {
    for (const r of routeRegistry) {
      if ('public' in r || !r.operation) continue;
      expect(r.operation.route, r.operation.name).toBe(routeName(r));
      expect({ scope: r.scope, write: r.write ?? false, rateLimit: r.rateLimit }).toEqual({
        scope: r.operation.needs.scope,
        write: r.operation.needs.write ?? false,
        rateLimit: r.operation.needs.rateLimit,
      });
    }
  });

  it('REST, GraphQL and MCP twins share the same operation object', () => {
    const byRoute = new Map<string, Operation>();
    for (const r of routeRegistry) if (!('public' in r) && r.operation) byRoute.set(routeName(r), r.operation);
    const exposed: Operation[] = [
      ...rootFields().flatMap(({ field }) => operationsOf(field)?.all ?? []),
      ...MCP_TOOLS.map((tool) => tool.operation),
    ];
    let twins = 0;
    for (const op of exposed) {
      if (!op.route) continue;
      // An operation with a REST route is mounted there, and that route exposes this very object.
      expect(byRoute.get(op.route), `${op.name} at ${op.route}`).toBe(op);
      twins++;
    }
    expect(twins).toBeGreaterThan(0);
    // One name per operation: two declarations of one use case would be two objects with one name.
    const all = [...new Set([...byRoute.values(), ...exposed])];
    const names = all.map((op) => op.name);
    expect(names.length).toBe(new Set(names).size);
  });

  it('every field that may run several operations runs ones with the same needs but for the bucket', () => {
    for (const { name, field } of rootFields()) {
      const ops = operationsOf(field);
      if (!ops || ops.all.length < 2) continue;
      // When the rates are counted (`ratesWithAdmission`: in the admission's statement, or before it) may differ:
      // the field picks its operation from its arguments before the pipeline admits it, and a refusal settles the
      // rates of whichever it picked (`settleRequestRates`). What a caller must hold may not.
      const needs = ops.all.map(({ needs: { ratesWithAdmission: _when, ...rest } }) => rest);
      for (const n of needs) expect(n, name).toEqual(needs[0]);
    }
  });
});
