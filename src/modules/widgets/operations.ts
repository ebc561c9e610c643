import { z } from 'zod';
import type { Caller } from '../../core/principal.js';
import { defineOperation } from '../../core/operation.js';
import { errors } from '../../errors/index.js';
import { familyScope } from './widget-caller.js';
import { startWidgetChat, widgetConfig, type WidgetStreamEvent } from './widget-chat.service.js';
import { createWidget, deleteWidget, getWidget, listWidgets, updateWidget } from './widgets.service.js';

// The widgets family's use cases (issue 29 §1, docs/widgets.md): rest/engine/widgets.routes.ts and
// widgets.graphql.ts (the workspace's side, scope engine), rest/widget-public.routes.ts (a visitor's
// side) refer to these; the request pipeline admits the caller with their needs.
const READ = { scope: 'engine' } as const;
const WRITE = { scope: 'engine', write: true } as const;
const ById = z.object({ id: z.string() });

export const listWidgetsOp = defineOperation({
  name: 'widgets.list',
  route: 'GET /engine/widgets',
  needs: READ,
  input: z.object({}),
  run: (ctx) => listWidgets(ctx),
});

export const getWidgetOp = defineOperation({
  name: 'widgets.get',
  route: 'GET /engine/widgets/:id',
  needs: READ,
  input: ById,
  run: (ctx, { id }) => getWidget(ctx, id),
});

export const createWidgetOp = defineOperation({
  name: 'widgets.create',
  route: 'POST /engine/widgets',
  needs: WRITE,
  input: z.object({ body: z.unknown() }),
  run: (ctx, { body }) => createWidget(ctx, body),
});

export const updateWidgetOp = defineOperation({
  name: 'widgets.update',
  route: 'PATCH /engine/widgets/:id',
  needs: WRITE,
  input: ById.extend({ body: z.unknown() }),
  run: (ctx, { id, body }) => updateWidget(ctx, id, body),
});

export const deleteWidgetOp = defineOperation({
  name: 'widgets.delete',
  route: 'DELETE /engine/widgets/:id',
  needs: WRITE,
  input: ById,
  run: async (ctx, { id }) => {
    await deleteWidget(ctx, id);
    return true as const;
  },
});

/**
 * A visitor's operations need the scope of the widget's family, the only one its caller holds (a key or
 * a person never reaches them: the widget endpoints authenticate the widget of the path).
 */
const visitorScope = (caller: Caller) => {
  if (caller.kind !== 'widget') throw errors.scopeDenied(null);
  return familyScope(caller.widget.widget.family);
};

/** What the panel shows before the first question. */
export const widgetConfigOp = defineOperation({
  name: 'widgets.config',
  route: 'GET /widget/:publicId/config',
  needs: { scope: null, scopeOf: visitorScope },
  input: z.object({}),
  run: async (ctx) => widgetConfig(ctx),
});

/**
 * A visitor's question, with the agent-chat ceiling counted per widget (like REST chat): everything
 * that refuses it does before the answer is returned; `finish` then sends its events to `sink`.
 */
export const widgetChatOp = defineOperation({
  name: 'widgets.chat',
  route: 'POST /widget/:publicId/chat',
  needs: { scope: null, scopeOf: visitorScope, write: true, rateLimit: 'agentChat' },
  input: z.object({ body: z.unknown(), sink: z.custom<(event: WidgetStreamEvent) => void>((v) => typeof v === 'function') }),
  run: (ctx, { body, sink }) => startWidgetChat(ctx, body, sink),
});
