import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { Router, type Request, type Response } from 'express';
import type { Caller } from '../src/core/principal.js';
import type { Deps } from '../src/core/deps.js';
import { errors } from '../src/errors/index.js';
import { authenticateWidget, type WidgetVisitor } from '../src/modules/widgets/index.js';
import { widgetChatOp, widgetConfigOp, type WidgetStreamEvent } from '../src/modules/widgets/index.js';
import { WidgetChatSchema, WidgetConfigSchema } from '../src/modules/widgets/index.js';
import { NativeErrorSchema } from './openapi.js';
import { addressOf, mountOperation, mountPublic, param, type Reply } from './route.js';
import { openSse, type SseStream } from './sse.js';

/**
 * The widget's public side (docs/widgets.md): the script a page embeds with one tag, and the endpoints
 * it calls. No key is ever sent or shown: the request pipeline's first step authenticates the widget
 * named in the path, from the page's `Origin`, and the rest of the pipeline runs as for every way in.
 * CORS answers only the widget's allowed origins; any other origin gets no CORS header (the browser
 * keeps the answer from the page) and a 403 `origin_not_allowed`.
 */

const SCRIPT_FILE = new URL('../src/modules/widgets/client/widget.js', import.meta.url);

interface Asset {
  plain: Buffer;
  gzip: Buffer;
  etag: string;
}

function loadScript(): Asset {
  const plain = readFileSync(SCRIPT_FILE);
  return { plain, gzip: gzipSync(plain, { level: 9 }), etag: `"${createHash('sha256').update(plain).digest('base64url').slice(0, 22)}"` };
}

/** `GET /widget.js`: cached for five minutes, gzipped when the browser accepts it, 304 when unchanged. */
function serveScript(asset: Asset, req: Request, res: Response): void {
  res.setHeader('Content-Type', 'text/javascript; charset=utf-8');
  res.setHeader('Cache-Control', 'public, max-age=300');
  res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('ETag', asset.etag);
  res.setHeader('Vary', 'Accept-Encoding');
  if (req.headers['if-none-match'] === asset.etag) {
    res.status(304).end();
    return;
  }
  const gzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
  if (gzip) res.setHeader('Content-Encoding', 'gzip');
  res.status(200).send(gzip ? asset.gzip : asset.plain);
}

const originOf = (req: Request): string | null => (typeof req.headers.origin === 'string' ? req.headers.origin : null);

const credentialsOf = (req: Request) => ({ publicId: param(req, 'publicId'), origin: originOf(req), ip: addressOf(req) });

/** CORS headers for an origin the widget allows (set only once the pipeline accepted it). */
function allowOrigin(res: Response, origin: string): void {
  res.setHeader('Access-Control-Allow-Origin', origin);
  res.setHeader('Access-Control-Expose-Headers', 'retry-after');
}

/**
 * The CORS preflight of the widget's endpoints: allowed origins may send `POST` with a JSON body; any
 * other origin (or an unknown widget) gets no CORS header, so the browser never sends the request. It
 * checks the widget and the origin only: nothing is done, so nothing is counted.
 */
async function preflight(app: Deps, req: Request): Promise<Reply> {
  const caller = await authenticateWidget(app, credentialsOf(req));
  return {
    status: 204,
    headers: {
      'Access-Control-Allow-Origin': caller.widget!.origin,
      'Access-Control-Allow-Methods': 'GET, POST',
      'Access-Control-Allow-Headers': 'content-type',
      'Access-Control-Max-Age': '600',
    },
  };
}

/** The statuses every widget endpoint may answer besides its own (documented in /openapi.json). */
const VISITOR_RESPONSES = {
  403: { description: '`origin_not_allowed` (no allowed Origin), or `client_suspended`', schema: NativeErrorSchema },
  404: { description: 'No widget by that public identifier', schema: NativeErrorSchema },
  429: { description: "`rate_limited`: the widget's per-address rate, with retry-after", schema: NativeErrorSchema },
};

/** The widget of an authenticated widget caller (the routes below mount with `widget: true`, so it is one). */
const visitorOf = (caller: Caller): WidgetVisitor => {
  if (caller.kind !== 'widget') throw errors.scopeDenied(null);
  return caller.widget;
};

/**
 * What the widget endpoints share: the caller is the widget (the pipeline's first step reads the path's
 * widget and the page's `Origin`), its scope is its family's (the operations' need), and once the widget
 * accepted the origin the answer — refusals included — is readable by the page (CORS for that origin).
 */
const visitorRoute = {
  widget: true,
  tag: 'widgets',
  authenticated: (caller: Caller, res: Response) => allowOrigin(res, visitorOf(caller).origin),
} as const;

/** The visitor's question: refusals before the stream are JSON; then tokens, `done` or one `error` event. */
async function streamAnswer(app: Deps, req: Request, res: Response, run: (input: { body: unknown; sink: (event: WidgetStreamEvent) => void }) => Promise<{ finish(): Promise<void> }>): Promise<void> {
  let sse: SseStream | undefined;
  const early: WidgetStreamEvent[] = [];
  const sink = (event: WidgetStreamEvent) => (sse ? sse.send(event) : early.push(event));
  const answer = await run({ body: req.body, sink });
  sse = openSse(res, { pingMs: app.config.streamPingMs });
  for (const event of early) sse.send(event);
  try {
    await answer.finish();
  } finally {
    sse.end();
  }
}

export function widgetPublicRouter(app: Deps): Router {
  const r = Router();
  const script = loadScript();
  mountPublic(r, app, {
    public: true,
    scope: null,
    tag: 'widgets',
    method: 'get',
    path: '/widget.js',
    summary: 'The embeddable widget script: <script src="…/widget.js" data-widget="<publicId>" async></script>',
    responses: { 200: { description: 'JavaScript (gzipped when accepted)' }, 304: { description: 'Unchanged (If-None-Match)' } },
    handler: async (_ctx, req, res) => serveScript(script, req, res),
  });
  const base = { public: true, scope: null, tag: 'widgets' } as const;
  for (const path of ['/widget/:publicId/config', '/widget/:publicId/chat']) {
    mountPublic(r, app, {
      ...base,
      method: 'options',
      path,
      summary: 'CORS preflight: answered with CORS headers for the widget\'s allowed origins only',
      responses: {
        204: { description: 'The origin is allowed: Access-Control-Allow-Origin, -Methods (GET, POST), -Headers (content-type)' },
        403: { description: '`origin_not_allowed`, without any CORS header', schema: NativeErrorSchema },
        404: { description: 'No widget by that public identifier', schema: NativeErrorSchema },
      },
      handler: async (_ctx, req, res) => {
        res.setHeader('Vary', 'Origin');
        return preflight(app, req);
      },
    });
  }
  mountOperation(r, app, widgetConfigOp, {
    ...visitorRoute,
    summary: "The widget's name and greeting, for its panel (allowed origins only)",
    responses: { ...VISITOR_RESPONSES, 200: { description: 'Configuration', schema: WidgetConfigSchema } },
    input: () => ({}),
    reply: (config) => ({ status: 200, body: config }),
  });
  // Like REST chat: the agent-chat ceiling, counted per widget (all its visitors together): widgets.chat's need.
  mountOperation(r, app, widgetChatOp, {
    ...visitorRoute,
    streams: true,
    body: WidgetChatSchema,
    summary: 'Ask the widget a question; the answer streams (token, done with citations, or error events)',
    responses: {
      ...VISITOR_RESPONSES,
      200: { description: 'text/event-stream of `data: {"type","data"}` events: token, done (content, citations), error' },
      400: { description: 'message missing, empty or too long, malformed history; widget_agent_unscoped (its agent lost its documents)', schema: NativeErrorSchema },
      402: { description: '`WIDGET_MONTHLY_LIMIT`: the widget answered its monthly ceiling; or the workspace has no questions left', schema: NativeErrorSchema },
      404: { description: "No widget by that public identifier, or the widget's agent or dossier was deleted", schema: NativeErrorSchema },
      429: {
        description:
          "`rate_limited`: the widget's per-address rate, with retry-after; or the agent-chat ceiling (SVC_RATE_AGENT_CHAT per minute, per widget) with its own body `{ message, route, limitPerMinute }`",
        schema: NativeErrorSchema,
      },
    },
    handler: (_ctx, req, res, run) => streamAnswer(app, req, res, run),
  });
  return r;
}
