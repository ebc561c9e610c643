/** The tools module's public surface: what other modules and the adapters may import (docs/architecture.md, "Module surfaces"). */
export { openSecretBox, type SecretBox } from './secret-box.js';
export { createToolRunner } from './tool-runner.js';
export { CreateToolSchema, LinkToolSchema, TestToolSchema, ToolDtoSchema, ToolRunResultSchema, UpdateToolSchema } from './tools.schemas.js';
export {
  createToolOp,
  deleteToolOp,
  getToolOp,
  linkToolOp,
  listAgentToolsOp,
  listToolsOp,
  testToolOp,
  unlinkToolOp,
  updateToolOp,
} from './operations.js';
