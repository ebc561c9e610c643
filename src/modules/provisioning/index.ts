/** The provisioning module's public surface: what other modules and the adapters may import (docs/architecture.md, "Module surfaces"). */
export { bootstrapFirstWorkspace, createWorkspace, setSuspended } from './provisioning.service.js';
