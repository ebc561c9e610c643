/** The widgets module's public surface: what other modules and the adapters may import (docs/architecture.md, "Module surfaces"). */
export { authenticateWidget, familyScope, type WidgetCredentials, type WidgetVisitor } from './widget-caller.js';
export { startWidgetChat, widgetConfig, type WidgetStreamEvent } from './widget-chat.service.js';
export { CreateWidgetSchema, UpdateWidgetSchema, WidgetChatSchema, WidgetConfigSchema, WidgetDtoSchema } from './widgets.schemas.js';
export { createWidget, deleteWidget, getWidget, listWidgets, updateWidget } from './widgets.service.js';
