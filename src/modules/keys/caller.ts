import type { User, UserRole, Workspace } from '../workspaces/workspace.entity.js';
import type { ApiKey } from './api-key.entity.js';

/** A caller signed in with a session (src/modules/people/sessions.ts) rather than an API key. */
export interface PersonIdentity {
  sessionId: string;
  role: UserRole;
}

// The entities a caller is made of, resolved from the API key by this module (`authenticateSecret`), or
// from the session cookie by the people module. A person has no API key: `key` then is a stand-in with
// no limits of its own (`personKey`, src/modules/people/sessions.ts), so per-key rates and budgets do not
// apply to people; `person` says who signed in.
declare module '../../core/context.js' {
  interface Caller {
    workspace: Workspace;
    user: User;
    key: ApiKey;
    /** Set when a signed-in person calls (session cookie); absent for an API key. */
    person?: PersonIdentity;
  }
}
