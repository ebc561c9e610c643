/**
 * What produced a certificate, in the console's words. The register's `kind` (gateway, chat, verify) is
 * read from the route; debates and poste runs are chat-kind turns there, told apart here by their route.
 */
export type ProofLabel = 'gateway' | 'chat' | 'debate' | 'poste run' | 'verifier report' | 'light answer' | 'widget chat';

export function proofLabelOf(c: { kind: string; route: string }): ProofLabel {
  const r = c.route;
  if (c.kind === 'verify' || r.startsWith('POST /v1/verify')) return 'verifier report';
  if (/conversation/i.test(r)) return 'debate';
  if (r.includes('/postes/')) return 'poste run';
  if (r.startsWith('POST /light/')) return 'light answer';
  if (r.startsWith('POST /widget/')) return 'widget chat';
  if (c.kind === 'gateway' || r === 'POST /v1/responses' || r.startsWith('POST /v1/messages')) return 'gateway';
  return 'chat';
}
