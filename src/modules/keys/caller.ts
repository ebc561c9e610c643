import type { UserRole } from '../../core/access.js';
import type { User, Workspace } from '../workspaces/index.js';
import type { ApiKey } from './api-key.entity.js';
import type { RememberedKey } from './keys.service.js';

/** A caller signed in with a session (src/modules/people/sessions.ts) rather than an API key. */
export interface PersonIdentity {
  sessionId: string;
  role: UserRole;
}

// The entities a caller is made of (src/core/principal.ts): every caller acting in a workspace has its
// workspace and a user (the key's owner, the signed-in person, the flow's creator, a widget's visitor);
// a key caller has its key, resolved by this module (`authenticateSecret`); a person caller says who
// signed in, resolved from the session cookie by the people module.
declare module '../../core/principal.js' {
  interface WorkspaceCaller {
    workspace: Workspace;
    user: User;
  }
  interface KeyCaller {
    key: ApiKey;
    /**
     * Set when the caller was made from the process's memory of its key's last lookup, without a statement
     * (`authenticateSecret`): not yet confirmed against the database. The request pipeline has its
     * admission confirm it, or a lookup before any earlier refusal (src/pipeline/pipeline.ts).
     */
    remembered?: RememberedKey;
  }
  interface PersonCaller {
    person: PersonIdentity;
  }
}
