/** The console's own routes, under /console (the service answers the page for every path below it). */
export const BASE = '/console';

export const SCREENS = ['agents', 'chat', 'debates', 'flows', 'knowledge', 'postes', 'webhooks', 'usage', 'keys', 'proofs', 'audit', 'people', 'account'] as const;
export type Screen = (typeof SCREENS)[number];

export type Route =
  | { screen: Screen; id?: string }
  | { screen: 'accept-invitation' }
  | { screen: 'not-found'; path: string };

const isScreen = (s: string): s is Screen => (SCREENS as readonly string[]).includes(s);

/** `/console/chat/ses_1` → `{ screen: 'chat', id: 'ses_1' }`; `/console` → agents. */
export function parseRoute(pathname: string): Route {
  const rest = pathname.startsWith(BASE) ? pathname.slice(BASE.length) : pathname;
  const parts = rest.split('/').filter(Boolean).map(decodeURIComponent);
  if (parts.length === 0) return { screen: 'agents' };
  const [first, second, ...more] = parts;
  if (first === 'accept-invitation' && parts.length === 1) return { screen: 'accept-invitation' };
  if (isScreen(first) && more.length === 0) return second ? { screen: first, id: second } : { screen: first };
  return { screen: 'not-found', path: pathname };
}

export function hrefOf(screen: Screen | 'accept-invitation', id?: string): string {
  return `${BASE}/${screen}${id ? `/${encodeURIComponent(id)}` : ''}`;
}

/** The invitation token of an acceptance link (`#invite=<token>`), else null. */
export function invitationTokenOf(hash: string): string | null {
  const m = /^#?invite=([A-Za-z0-9_-]+)$/.exec(hash);
  return m ? m[1] : null;
}
