import { ConsoleError, nativeError, NETWORK_MESSAGE, waitMessage } from './lib/errors.js';

/**
 * Sessions are opened and closed by the people module's /auth routes (they set and clear the httpOnly
 * cookie); everything else the console does goes through GraphQL.
 */
async function post(path: string, body: unknown): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(path, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  } catch {
    throw new ConsoleError(NETWORK_MESSAGE);
  }
  const text = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (res.status === 429) throw new ConsoleError(waitMessage(res.headers.get('retry-after')), 'rate_limited');
  if (!res.ok) throw nativeError(res.status, parsed);
  return parsed;
}

export const signIn = (email: string, password: string) => post('/auth/sign-in', { email, password });
export const signOut = () => post('/auth/sign-out', {});
export const acceptInvitation = (input: { token: string; password: string; name?: string; email?: string }) =>
  post('/auth/invitations/accept', input);
/** Mails a reset link when the address belongs to an account; the answer is the same either way. */
export const requestPasswordReset = (email: string) => post('/auth/password-reset', { email });
