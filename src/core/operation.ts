import type { z } from 'zod';
import type { AppConfig } from '../config.js';
import type { UserRole } from './access.js';
import type { ServiceContext } from './context.js';
import type { Caller } from './principal.js';
import type { CapabilityScope } from './scopes.js';

/** A route-level ceiling of `config.routeRates` (SPEC Limits, request rate 2). */
export type CeilingName = keyof AppConfig['routeRates'];

/**
 * What one operation needs from the request pipeline. The pipeline reads it (src/pipeline/pipeline.ts:
 * ceiling, then person and role, then scope, then read-only); no adapter and no service restates it.
 */
export interface Needs {
  /**
   * Capability scope of the family (null: no capability scope opens it; the writes no scope opens need
   * an admin). Left undefined (only on the pipeline's own requests: a protocol message, a 404), nothing
   * is checked.
   */
  scope?: CapabilityScope | null;
  /**
   * The scope depends on the caller, and replaces `scope` in the check: a widget visitor's operations need
   * the scope of the widget's family (src/modules/widgets/operations.ts).
   */
  scopeOf?: (caller: Caller) => CapabilityScope;
  /** The operation changes something (chatting counts): read-only keys are refused. */
  write?: boolean;
  /** The route-level ceiling the operation counts against, besides the caller's own rates. */
  rateLimit?: CeilingName;
  /**
   * The use case counts the rates (the caller's and the ceiling) in its admission's statement
   * (`svc_rate_admit`, the gateway's answers and the plain chat turns: issue 28) instead of one statement
   * each at step 2; a refusal before the admission counts them first, so a 429 keeps its place in the order
   * of refusals.
   */
  ratesWithAdmission?: true;
  /** Only signed-in people may perform it: an API key is refused with 403 person_required. */
  person?: boolean;
  /** The role a signed-in person needs (403 admin_required); docs/people.md has the matrix. */
  role?: UserRole;
  /**
   * Any authenticated caller may perform it, a restricted or read-only key included (`viewer`: who am I):
   * no scope, role or read-only check; an anonymous caller is refused (401). Declared with `scope: null`.
   */
  anyCaller?: true;
}

/**
 * One use case, declared once beside its service (`src/modules/<domain>/operations.ts`): its name, what
 * it needs, the shape of its input and the function that runs it. The REST route, the GraphQL root field
 * and the MCP tool that expose it refer to this object; the request pipeline admits the caller with its
 * `needs` before `run` is called. *(Payload: access declared once, enforced in the operation.)*
 */
export interface Operation<I = unknown, O = unknown> {
  /** `<module>.<useCase>`, e.g. `agents.create`: what logs and tests call it. */
  readonly name: string;
  /**
   * `METHOD /path` of the REST route that exposes it, where one does: REST mounts it there, and a
   * ceiling counts in that route's bucket whichever API (REST, GraphQL, MCP) is used.
   */
  readonly route?: string;
  readonly needs: Readonly<Needs> & { readonly scope: CapabilityScope | null };
  /** The input `run` takes: parsed here (ids, shapes); a body is parsed by the service with its module schema. */
  readonly input: z.ZodType<unknown, I>;
  /** Runs the use case for an admitted caller: parses `input`, then calls the service. */
  run(ctx: ServiceContext, input: I): Promise<O>;
}

export interface OperationDef<S extends z.ZodType, O> {
  name: string;
  route?: string;
  needs: Needs & { scope: CapabilityScope | null };
  input: S;
  run: (ctx: ServiceContext, input: z.output<S>) => Promise<O>;
}

/** Declares an operation; the result is frozen and is the one object every adapter refers to. */
export function defineOperation<S extends z.ZodType, O>(def: OperationDef<S, O>): Operation<z.input<S>, O> {
  const { name, route, needs, input, run } = def;
  return Object.freeze({
    name,
    ...(route ? { route } : {}),
    needs: Object.freeze({ ...needs }),
    input: input as unknown as z.ZodType<unknown, z.input<S>>,
    run: (ctx: ServiceContext, raw: z.input<S>) => run(ctx, input.parse(raw)),
  });
}

/** The bucket a ceiling of `op` counts in (and the `route` of its 429): its REST route, else its name. */
export const bucketOf = (op: Pick<Operation, 'name' | 'route'>): string => op.route ?? op.name;
