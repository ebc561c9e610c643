/** The tools module's public surface: what other modules and the adapters may import (docs/architecture.md, "Module surfaces"). */
export { openSecretBox, type SecretBox } from './secret-box.js';
export { createToolRunner } from './tool-runner.js';
export { CreateToolSchema, LinkToolSchema, TestToolSchema, ToolDtoSchema, ToolRunResultSchema, UpdateToolSchema } from './tools.schemas.js';
export { createTool, deleteTool, getTool, linkTool, listAgentTools, listTools, testTool, toToolDto, unlinkTool, updateTool } from './tools.service.js';
