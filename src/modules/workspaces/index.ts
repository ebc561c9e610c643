/** The workspaces module's public surface: what other modules and the adapters may import (docs/architecture.md, "Module surfaces"). */
export { assertSeatRoom } from './seats.js';
export { type PlanName, PLANS, User, USER_STATES, Workspace } from './workspace.entity.js';
export { createUser, findWorkspaceOrFail } from './workspaces.service.js';
export { viewerOp } from './operations.js';
