/**
 * The widget caller: an embedded widget acting for its workspace on an anonymous visitor's behalf, with
 * the narrowest capability there is — its own family's chat, for its own agent, nothing else. It is
 * made by the request pipeline's first step (`authenticate`, src/pipeline/pipeline.ts) from the public
 * identifier and the page's `Origin`, in place of a key, so the rest of the pipeline (rates, scope,
 * read-only, admission and metering) runs as for every other way in. docs/widgets.md.
 */
import type { WidgetCaller } from '../../core/principal.js';
import type { Deps } from '../../core/deps.js';
import { errors } from '../../errors/index.js';
import type { CapabilityScope } from '../../core/scopes.js';
import { User, Workspace } from '../workspaces/index.js';
import { Widget, type WidgetFamily } from './widget.entity.js';
import { normaliseOrigin } from './widgets.schemas.js';

/** What the pipeline's first step reads from a request to a widget's public endpoint. */
export interface WidgetCredentials {
  publicId: string;
  /** The request's `Origin` header: the page the widget is embedded in. */
  origin: string | null;
  /** The visitor's address, as the server sees it (behind a proxy: `trust proxy`). */
  ip: string;
}

/** Who the widget acts for: set on the caller of a widget's public endpoint. */
export interface WidgetVisitor {
  widget: Widget;
  /** The allowed origin the request came from (normalised). */
  origin: string;
  ip: string;
}

declare module '../../core/principal.js' {
  interface WidgetCaller {
    /** The widget acting for its workspace, and the visitor's page and address. */
    widget: WidgetVisitor;
  }
}

/**
 * The widget's meter: the ledger's key column for what it consumes (usage by key shows each widget apart),
 * its monthly ceiling and its agent-chat ceiling count under it.
 */
export const widgetKeyId = (widgetId: string): string => `widget:${widgetId}`;

/** The capability scope of the family a widget answers with. */
export const familyScope = (family: WidgetFamily): CapabilityScope => (family === 'light' ? 'light' : 'agents');

/**
 * The visitor is nobody of the workspace: a user that owns nothing (no memory, no session, no member's
 * role), whose id names the widget in the ledger's user column.
 */
function visitorUser(widget: Widget): User {
  return Object.assign(new User(), {
    id: widgetKeyId(widget.id),
    workspaceId: widget.workspaceId,
    name: widget.name,
    email: null,
    passwordHash: null,
    role: 'member',
    state: 'active',
    createdAt: widget.createdAt,
  });
}

/**
 * Step 1 of the pipeline for a widget's public endpoint: the widget behind the public identifier
 * (404), called from one of its allowed origins (403 `origin_not_allowed`, also without an `Origin`),
 * its workspace not suspended (403 `client_suspended`). The caller holds only the family's scope.
 */
export async function authenticateWidget(app: Deps, credentials: WidgetCredentials): Promise<WidgetCaller> {
  const em = app.orm.em.fork();
  const { publicId } = credentials;
  const widget = publicId.includes('\u0000') || publicId.length > 64 ? null : await em.findOne(Widget, { publicId });
  if (!widget) throw errors.notFound('widget', publicId);
  const origin = credentials.origin ? normaliseOrigin(credentials.origin) : undefined;
  if (!origin || !widget.allowedOrigins.includes(origin)) throw errors.originNotAllowed(credentials.origin);
  const workspace = await em.findOne(Workspace, { id: widget.workspaceId });
  if (!workspace) throw errors.notFound('widget', publicId);
  if (workspace.suspended) throw errors.clientSuspended();
  const scope = familyScope(widget.family);
  return {
    kind: 'widget',
    workspace,
    user: visitorUser(widget),
    widget: { widget, origin, ip: credentials.ip },
    limits: {
      meter: widgetKeyId(widget.id),
      // Each visitor apart: the widget's per-address rate.
      rates: [{ bucket: `widget:${widget.id}:ip:${credentials.ip}`, perMinute: widget.ipRatePerMinute }],
      // The widget's monthly ceiling, checked and cached like a key's budget.
      monthlyQuestions: widget.monthlyQuestionLimit,
    },
    scopes: [scope],
    restricted: true,
    readonly: false,
  };
}
