/** The widgets module's public surface: what other modules and the adapters may import (docs/architecture.md, "Module surfaces"). */
export { authenticateWidget, familyScope, type WidgetCredentials, type WidgetVisitor } from './widget-caller.js';
export type { WidgetStreamEvent } from './widget-chat.service.js';
export { CreateWidgetSchema, UpdateWidgetSchema, WidgetChatSchema, WidgetConfigSchema, WidgetDtoSchema } from './widgets.schemas.js';
export { createWidgetOp, deleteWidgetOp, getWidgetOp, listWidgetsOp, updateWidgetOp, widgetChatOp, widgetConfigOp } from './operations.js';
