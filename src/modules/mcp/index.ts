/** The mcp module's public surface: what other modules and the adapters may import (docs/architecture.md, "Module surfaces"). */
export { buildMcpServer } from './mcp.server.js';
