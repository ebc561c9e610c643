import { defineEntity, p } from '@mikro-orm/core';

/**
 * The minimal conversation record the gateway needs for `x-svc-conversation`: a workspace-scoped id.
 * Gateway calls naming it carry its id in their proof certificate. The debate module owns its content.
 */
const ConversationSchema = defineEntity({
  name: 'Conversation',
  tableName: 'conversation',
  properties: {
    id: p.string().primary(),
    workspaceId: p.string(),
    createdAt: p.datetime(),
  },
});
export class Conversation extends ConversationSchema.class {}
ConversationSchema.setClass(Conversation);
