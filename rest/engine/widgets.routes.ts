import { Router } from 'express';
import { z } from 'zod';
import type { Deps } from '../../src/core/deps.js';
import { CreateWidgetSchema, UpdateWidgetSchema, WidgetDtoSchema } from '../../src/modules/widgets/index.js';
import { createWidgetOp, deleteWidgetOp, getWidgetOp, listWidgetsOp, updateWidgetOp } from '../../src/modules/widgets/index.js';
import { mountOperation, param } from '../route.js';

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
  const base = { tag: 'widgets', people: true } as const;
  mountOperation(r, app, listWidgetsOp, {
    ...base,
    summary: 'Widgets of the workspace, oldest first, with the questions each answered this month',
    responses: { 200: { description: 'Widgets', schema: z.object({ widgets: z.array(WidgetDtoSchema) }) } },
    input: () => ({}),
    reply: (widgets) => ({ status: 200, body: { widgets } }),
  });
  mountOperation(r, app, createWidgetOp, {
    ...base,
    summary: 'Create an embeddable widget (an agent limited to chosen documents or dossiers, or the light family on one dossier)',
    body: CreateWidgetSchema,
    responses: { 201: { description: 'Created', schema: one }, 400: badRequest },
    input: (req) => ({ body: req.body }),
    reply: (widget) => ({ status: 201, body: { widget } }),
  });
  mountOperation(r, app, getWidgetOp, {
    ...base,
    summary: 'One widget',
    responses: { 200: { description: 'Widget', schema: one }, 404: notFound },
    input: (req) => ({ id: param(req, 'id') }),
    reply: (widget) => ({ status: 200, body: { widget } }),
  });
  mountOperation(r, app, updateWidgetOp, {
    ...base,
    summary: 'Change a widget: omitted or null fields keep their value; its answerer is checked again',
    body: UpdateWidgetSchema,
    responses: { 200: { description: 'Updated', schema: one }, 400: badRequest, 404: notFound },
    input: (req) => ({ id: param(req, 'id'), body: req.body }),
    reply: (widget) => ({ status: 200, body: { widget } }),
  });
  mountOperation(r, app, deleteWidgetOp, {
    ...base,
    summary: 'Delete a widget: its script tag answers 404 from then on',
    responses: { 204: { description: 'Deleted' }, 404: notFound },
    input: (req) => ({ id: param(req, 'id') }),
    reply: () => ({ status: 204 }),
  });
  return r;
}
