import { Router } from 'express';
import { z } from 'zod';
import type { Deps } from '../../src/core/deps.js';
import { CreateWidgetSchema, UpdateWidgetSchema, WidgetDtoSchema } from '../../src/modules/widgets/index.js';
import { createWidget, deleteWidget, getWidget, listWidgets, updateWidget } from '../../src/modules/widgets/index.js';
import { mount, param } from '../route.js';

const notFound = { description: 'Unknown widget (or another workspace’s)' };
const badRequest = {
  description:
    'Invalid field (named by `field`): unknown agent or a poste, light without a dossier or an unknown one; `widget_agent_unscoped` when the agent reads no chosen documents or dossiers',
};
const one = z.object({ widget: WidgetDtoSchema });

/** `/engine/widgets`: the workspace's embeddable widgets (scope `engine`; docs/widgets.md). */
export function widgetsRouter(app: Deps): Router {
  const r = Router();
  // Like the rest of the engine family, signed-in people may use their session cookie too.
  const base = { tag: 'widgets', scope: 'engine', people: true } as const;
  mount(r, app, {
    ...base,
    method: 'get',
    path: '/engine/widgets',
    summary: 'Widgets of the workspace, oldest first, with the questions each answered this month',
    responses: { 200: { description: 'Widgets', schema: z.object({ widgets: z.array(WidgetDtoSchema) }) } },
    handler: async (ctx) => ({ status: 200, body: { widgets: await listWidgets(ctx) } }),
  });
  mount(r, app, {
    ...base,
    method: 'post',
    path: '/engine/widgets',
    summary: 'Create an embeddable widget (an agent limited to chosen documents or dossiers, or the light family on one dossier)',
    body: CreateWidgetSchema,
    responses: { 201: { description: 'Created', schema: one }, 400: badRequest },
    handler: async (ctx, req) => ({ status: 201, body: { widget: await createWidget(ctx, req.body) } }),
  });
  mount(r, app, {
    ...base,
    method: 'get',
    path: '/engine/widgets/:id',
    summary: 'One widget',
    responses: { 200: { description: 'Widget', schema: one }, 404: notFound },
    handler: async (ctx, req) => ({ status: 200, body: { widget: await getWidget(ctx, param(req, 'id')) } }),
  });
  mount(r, app, {
    ...base,
    method: 'patch',
    path: '/engine/widgets/:id',
    summary: 'Change a widget: omitted or null fields keep their value; its answerer is checked again',
    body: UpdateWidgetSchema,
    responses: { 200: { description: 'Updated', schema: one }, 400: badRequest, 404: notFound },
    handler: async (ctx, req) => ({ status: 200, body: { widget: await updateWidget(ctx, param(req, 'id'), req.body) } }),
  });
  mount(r, app, {
    ...base,
    method: 'delete',
    path: '/engine/widgets/:id',
    summary: 'Delete a widget: its script tag answers 404 from then on',
    responses: { 204: { description: 'Deleted' }, 404: notFound },
    handler: async (ctx, req) => {
      await deleteWidget(ctx, param(req, 'id'));
      return { status: 204 };
    },
  });
  return r;
}
