import { z } from 'zod';
import type { Deps } from '../../core/deps.js';
import { withSpan } from '../../lib/tracing.js';
import { OutboundRequestError, safeFetch } from '../../net/index.js';
import type { WorkspaceTool } from './tool.entity.js';
import { TOOL_MAX_RESPONSE_BYTES } from './tools.schemas.js';
import { fillTemplate, scalar } from './url-template.js';

export interface ToolOutcome {
  success: boolean;
  /** The API's answer (parsed JSON or text) on success; `{ error, ... }` on failure. */
  result: unknown;
  durationMs: number;
}

const ERROR_BODY_CHARS = 1_000;
const validators = new WeakMap<WorkspaceTool, { at: number; schema: z.ZodType }>();

function validatorFor(tool: WorkspaceTool): z.ZodType {
  const cached = validators.get(tool);
  if (cached && cached.at === tool.updatedAt.getTime()) return cached.schema;
  const schema = z.fromJSONSchema(tool.inputSchema as z.core.JSONSchema.JSONSchema);
  validators.set(tool, { at: tool.updatedAt.getTime(), schema });
  return schema;
}

const failure = (started: number, error: string, extra: Record<string, unknown> = {}): ToolOutcome => ({
  success: false,
  result: { error, ...extra },
  durationMs: Math.round(performance.now() - started),
});

/**
 * One call of a workspace tool. Arguments (an object, or its JSON text as models write it) are checked
 * against the input schema; placeholders of the URL template are filled from them; the other
 * arguments go in the query string (GET, DELETE) or as a JSON body (POST, PUT, PATCH). The request
 * leaves through the SSRF guard (`safeFetch`: deployment rules, checked address, no redirects) with the
 * tool's timeout and a 64 KiB response cap. A 2xx answer is a success; anything else — a refusal, a
 * timeout, a connection error, a non-2xx status, an oversized answer, bad arguments — is returned as
 * `success: false` with an `error` the model can read. This function never throws. With tracing on, the call
 * is a `tool.call` span, and the request carries its `traceparent` (undici instrumentation).
 */
export function executeTool(app: Deps, tool: WorkspaceTool, rawArgs: unknown, signal?: AbortSignal): Promise<ToolOutcome> {
  return withSpan('tool.call', { 'svc.tool.id': tool.id, 'svc.tool.name': tool.name, 'http.request.method': tool.method }, async (span) => {
    const outcome = await callTool(app, tool, rawArgs, signal);
    span.set({ 'svc.tool.success': outcome.success });
    return outcome;
  });
}

async function callTool(app: Deps, tool: WorkspaceTool, rawArgs: unknown, signal?: AbortSignal): Promise<ToolOutcome> {
  const started = performance.now();
  try {
    let args: unknown = rawArgs;
    if (typeof args === 'string') {
      try {
        args = args.trim() === '' ? {} : JSON.parse(args);
      } catch {
        return failure(started, 'arguments are not valid JSON');
      }
    }
    if (args === undefined || args === null) args = {};
    if (typeof args !== 'object' || Array.isArray(args)) return failure(started, 'arguments must be a JSON object');
    const checked = validatorFor(tool).safeParse(args);
    if (!checked.success) {
      const issue = checked.error.issues[0];
      return failure(started, `invalid arguments: ${issue.path.length ? `${issue.path.join('.')}: ` : ''}${issue.message}`);
    }
    const values = args as Record<string, unknown>;
    const filled = fillTemplate(tool.urlTemplate, values);
    if ('missing' in filled) return failure(started, `invalid arguments: ${filled.missing} is required`);

    const rest = Object.entries(values).filter(([k, v]) => !filled.used.has(k) && v !== undefined);
    const url = new URL(filled.url);
    let body: string | undefined;
    const headers: Record<string, string> = { accept: 'application/json, text/plain;q=0.9, */*;q=0.5', 'user-agent': 'Svc-Tools/1.0' };
    if (tool.method === 'GET' || tool.method === 'DELETE') {
      for (const [k, v] of rest) url.searchParams.append(k, scalar(v));
    } else {
      body = JSON.stringify(Object.fromEntries(rest));
      headers['content-type'] = 'application/json';
    }
    const box = tool.headers.some((h) => h.secret) ? app.secretBox : null;
    for (const h of tool.headers) {
      if (!h.secret) headers[h.name.toLowerCase()] = h.value;
      else {
        try {
          headers[h.name.toLowerCase()] = box!.open(h.sealed, `${tool.id}:${h.name.toLowerCase()}`);
        } catch {
          return failure(started, `secret header ${h.name} cannot be read (the server key changed); set it again`);
        }
      }
    }

    const response = await safeFetch(url.toString(), {
      method: tool.method,
      headers,
      body,
      timeoutMs: tool.timeoutMs,
      maxResponseBytes: TOOL_MAX_RESPONSE_BYTES,
      deployment: app.config.deployment,
      resolve: app.resolve,
      signal,
    });
    if (response.truncated) {
      return failure(started, `response larger than ${TOOL_MAX_RESPONSE_BYTES} bytes`, { status: response.status });
    }
    const parsed = parseBody(response.body, response.headers['content-type']);
    if (response.status < 200 || response.status >= 300) {
      const redirect = response.status >= 300 && response.status < 400 ? ' (redirects are not followed)' : '';
      return failure(started, `HTTP ${response.status}${redirect}`, {
        status: response.status,
        body: typeof parsed === 'string' ? parsed.slice(0, ERROR_BODY_CHARS) : parsed,
      });
    }
    return { success: true, result: parsed, durationMs: Math.round(performance.now() - started) };
  } catch (err) {
    if (err instanceof OutboundRequestError) return failure(started, err.message, { kind: err.kind });
    app.log.warn({ err, toolId: tool.id }, 'tool call failed');
    return failure(started, 'tool call failed');
  }
}

function parseBody(text: string, contentType: string | undefined): unknown {
  if (text === '') return '';
  if (contentType && /json/i.test(contentType)) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}
