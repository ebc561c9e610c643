import type { graphql } from '../graphql.js';

/** A scope name, as the schema's `ApiKeyScope` enum lists them (gql.tada reads it from schema.graphql). */
export type ApiKeyScope = ReturnType<typeof graphql.scalar<'ApiKeyScope'>>;

/**
 * Each scope in words; `null` for the legacy module names, which grant nothing and are not offered.
 * `satisfies` keeps this in step with the enum: a scope added to the service fails the console's type check
 * until it is explained here.
 */
export const SCOPE_WORDS = {
  agents: 'Agents, chat, debates and postes',
  knowledge: 'Documents, collections and knowledge search',
  webhooks: 'Webhook endpoints and their deliveries',
  engine: 'Flows: build, run and approve automations',
  proof: 'The verifier and the register of proofs',
  light: 'Light: cited answers from your documents',
  reflex: 'Reflex: quick answers',
  partner: 'Partner programme: client workspaces, their keys and invoices',
  readonly: 'Read-only: can list and read, never create, change, delete or chat',
  chat: null,
  documents: null,
  memory: null,
  analytics: null,
  automation: null,
  admin: null,
} satisfies Record<ApiKeyScope, string | null>;

/** The scopes a new key is offered, in the order above (read-only is its own checkbox). */
export const OFFERED_SCOPES = (Object.keys(SCOPE_WORDS) as ApiKeyScope[]).filter((s) => SCOPE_WORDS[s] !== null && s !== 'readonly');

/** A scope held by a key, in words ("agents: Agents, chat, …"); a legacy name as itself. */
export const scopeInWords = (scope: string): string => {
  const words = (SCOPE_WORDS as Record<string, string | null>)[scope];
  return words ? `${scope} (${words})` : scope;
};
