import { Agent, AgentMemory } from '../modules/agents/agent.entity.js';
import { ApiKey } from '../modules/keys/api-key.entity.js';
import { User, Workspace } from '../modules/workspaces/workspace.entity.js';

/** Every entity of the service; one line per module. */
export const entities = [Workspace, User, ApiKey, Agent, AgentMemory];
