import type { User, Workspace } from '../workspaces/workspace.entity.js';
import type { ApiKey } from './api-key.entity.js';

// The entities a caller is made of, resolved from the API key by this module (`authenticateSecret`).
declare module '../../core/context.js' {
  interface Caller {
    workspace: Workspace;
    user: User;
    key: ApiKey;
  }
}
