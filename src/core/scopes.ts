/** Capability scopes of SPEC's Authentication section. A key holding any of them is restricted. */
export const CAPABILITY_SCOPES = ['engine', 'knowledge', 'reflex', 'light', 'webhooks', 'partner', 'proof', 'agents'] as const;
export type CapabilityScope = (typeof CAPABILITY_SCOPES)[number];

/**
 * The six legacy module scopes (names not given by SPEC; our choice, see docs/decisions.md).
 * A key holding only these stays unrestricted.
 */
export const LEGACY_SCOPES = ['chat', 'documents', 'memory', 'analytics', 'automation', 'admin'] as const;

export const READONLY_SCOPE = 'readonly';

export const KNOWN_SCOPES: readonly string[] = [...CAPABILITY_SCOPES, ...LEGACY_SCOPES, READONLY_SCOPE];

export const isCapabilityScope = (s: string): s is CapabilityScope =>
  (CAPABILITY_SCOPES as readonly string[]).includes(s);

export function isRestricted(scopes: readonly string[]): boolean {
  return scopes.some(isCapabilityScope);
}

/** Every scope name in words, as the console and the GraphQL enum `ApiKeyScope` explain them. */
export const SCOPE_DESCRIPTIONS: Record<string, string> = {
  engine: 'Flows: build, run and approve automations (/engine)',
  knowledge: 'Knowledge: documents, collections and search (/v1/knowledge)',
  reflex: 'Reflex: quick answers (/v1/reflex)',
  light: 'Light: cited answers from your documents (/v1/light)',
  webhooks: 'Webhooks: register endpoints and read deliveries (/v1/webhooks)',
  partner: 'Partner: client workspaces, their keys and invoices (/partner)',
  proof: 'Proofs: the verifier and the register of certificates (/v1/verify, /v1/registre)',
  agents: 'Agents: personas, chat, debates and postes (/v1/agents, /v1/chat)',
  chat: 'Legacy module name: grants nothing by itself',
  documents: 'Legacy module name: grants nothing by itself',
  memory: 'Legacy module name: grants nothing by itself',
  analytics: 'Legacy module name: grants nothing by itself',
  automation: 'Legacy module name: grants nothing by itself',
  admin: 'Legacy module name: grants nothing by itself',
  readonly: 'Read-only: can list and read, never create, change, delete or chat',
};
