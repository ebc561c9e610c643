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
