import { defineEntity, p } from '@mikro-orm/core';

/** What answers a widget's visitors: one agent limited to chosen documents, or the light family on one dossier. */
export type WidgetFamily = 'agent' | 'light';

const WidgetSchema = defineEntity({
  name: 'Widget',
  tableName: 'widget',
  properties: {
    id: p.string().primary(),
    workspaceId: p.string(),
    /** The member who created it: the visitors' answers are metered to the workspace under the widget. */
    userId: p.string(),
    /** Named by the page's script tag; public by nature, it opens nothing but this widget's chat. */
    publicId: p.string().unique(),
    name: p.text(),
    greeting: p.text().nullable(),
    family: p.string().$type<WidgetFamily>(),
    agentId: p.string().nullable(),
    /** The dossier a light widget answers from. */
    dossierId: p.string().nullable(),
    /** Exact origins (`scheme://host[:port]`), normalised. */
    allowedOrigins: p.json<string[]>(),
    monthlyQuestionLimit: p.integer(),
    ipRatePerMinute: p.integer(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export class Widget extends WidgetSchema.class {}
WidgetSchema.setClass(Widget);
