/**
 * Who is calling: one type for every way in, resolved once by the request pipeline's first step
 * (src/pipeline/pipeline.ts) and handed to the use cases as `ctx.caller`. Each kind carries the limits
 * that fit it (`limits`), so the rest of the pipeline — rates, ceilings, scope, read-only, admission and
 * metering — reads them without asking what kind of caller it has. Directus' `accountability` is the
 * model: one object for every caller behind one middleware chain.
 *
 * | kind | made by | who is metered (`limits.meter`) | rates |
 * | --- | --- | --- | --- |
 * | `key` | an API key (`Authorization: Bearer`, `x-api-key`) | the key's id | the key's `ratePerMinute` |
 * | `person` | the session cookie of a signed-in person | `person:<userId>` | none |
 * | `widget` | an embedded widget's public endpoint, for an anonymous visitor | `widget:<widgetId>` | the widget's per-visitor-address rate |
 * | `system` | the service itself: a flow's run (its steps, its signed hook) | `flow:<flowId>` | the flow's own rate |
 * | `anonymous` | a public route (`/auth/*`, device pairing, hooks before their signature is checked) | `addr:<address>` | the route's per-address ceiling |
 *
 * Core cannot name module types: the keys module declares the entities (`workspace`, `user`, `key`), the
 * people module `person`, the widgets module `widget`, by declaration merging (as `Deps` is built).
 */

/** One request rate a caller counts against on every operation: `perMinute` per calendar minute in `bucket`. */
export interface RateRule {
  bucket: string;
  perMinute: number;
}

/** The limits that fit a caller, decided when it is authenticated. */
export interface CallerLimits {
  /**
   * Who is counted: the usage ledger's key column (its per-key and per-person views), the monthly
   * question budget and the per-caller route ceilings (agent chat). A key's own id; for the others a
   * name of their kind (`person:<userId>`, `widget:<widgetId>`, `flow:<flowId>`, `addr:<address>`).
   */
  meter: string;
  /** Rates counted on every operation, before the operation's own ceiling. */
  rates: readonly RateRule[];
  /** Questions per calendar month (UTC) the meter may consume; null: no budget of its own. */
  monthlyQuestions: number | null;
}

interface PrincipalBase {
  limits: CallerLimits;
  /** Capability scopes held (keys and widgets); empty for the others. */
  scopes: readonly string[];
  /** Holds at least one capability scope: anything outside them is refused. */
  restricted: boolean;
  readonly: boolean;
}

/** A caller acting in a workspace: every kind but `anonymous`. The keys module declares `workspace` and `user`. */
export interface WorkspaceCaller extends PrincipalBase {}

/** An API key (the keys module declares `key`). */
export interface KeyCaller extends WorkspaceCaller {
  kind: 'key';
}

/** A person signed in with the session cookie (the keys module declares `person`). */
export interface PersonCaller extends WorkspaceCaller {
  kind: 'person';
}

/**
 * An embedded widget acting for its workspace on an anonymous visitor's behalf (the widgets module
 * declares `widget`). Its `user` is the visitor: nobody of the workspace, never stored.
 */
export interface WidgetCaller extends WorkspaceCaller {
  kind: 'widget';
}

/** What the service itself is doing when it is the caller. */
export interface SystemTask {
  /** A flow's run: its steps, or its inbound hook once the signature is checked. */
  kind: 'flow';
  flowId: string;
  runId: string | null;
}

/** The service itself, acting as a flow's creator in the flow's workspace (`user` is the creator). */
export interface SystemCaller extends WorkspaceCaller {
  kind: 'system';
  task: SystemTask;
}

/** Someone not (yet) known, by address: the caller of a public route. */
export interface AnonymousCaller extends PrincipalBase {
  kind: 'anonymous';
  /** The client's address as the server sees it (behind a proxy: `trust proxy`). */
  address: string;
}

/** Every caller of a use case: someone acting in a workspace. */
export type Caller = KeyCaller | PersonCaller | WidgetCaller | SystemCaller;

/** Every caller there is, public routes included. */
export type Principal = Caller | AnonymousCaller;

/** The anonymous caller of a public route: no scope, metered (and ceilinged) by its address. */
export const anonymousCaller = (address: string): AnonymousCaller => ({
  kind: 'anonymous',
  address,
  limits: { meter: `addr:${address}`, rates: [], monthlyQuestions: null },
  // Restricted to nothing: any declared scope is refused.
  scopes: [],
  restricted: true,
  readonly: false,
});
