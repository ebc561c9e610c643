/** The agents module's public surface: what other modules and the adapters may import (docs/architecture.md, "Module surfaces"). */
export { Agent, AgentMemory, isPoste, type AgentPersona } from './agent.entity.js';
export { AgentDtoSchema, CreateAgentSchema, UpdateAgentSchema } from './agents.schemas.js';
export { agentNotFound, findAgent, loadWorkspaceAgents, toAgentDto } from './agents.service.js';
export { createAgentOp, deleteAgentOp, listAgentsOp, updateAgentOp } from './operations.js';
