import { ProviderError } from './provider.js';

/**
 * Wraps whatever an SDK threw into a ProviderError. Both SDKs expose `status` on HTTP errors and
 * name their abort error `APIUserAbortError`; a fetch body cut by the signal throws `AbortError`.
 */
export function toProviderError(provider: string, err: unknown, signal?: AbortSignal): ProviderError {
  if (err instanceof ProviderError) return err;
  const name = err instanceof Error ? err.name : '';
  if (signal?.aborted || name === 'AbortError' || name === 'APIUserAbortError') {
    return new ProviderError(`${provider} model call aborted`, { provider, cause: err, aborted: true });
  }
  const status = statusOf(err);
  const detail = err instanceof Error ? err.message : String(err);
  const what = status ? `HTTP ${status}` : name === 'APIConnectionTimeoutError' ? 'timed out' : 'failed';
  return new ProviderError(`${provider} model call ${what}: ${detail}`, { provider, cause: err, status });
}

export function abortedError(provider: string, signal: AbortSignal): ProviderError {
  return new ProviderError(`${provider} model call aborted`, { provider, cause: signal.reason, aborted: true });
}

function statusOf(err: unknown): number | undefined {
  if (typeof err !== 'object' || err === null || !('status' in err)) return undefined;
  return typeof err.status === 'number' ? err.status : undefined;
}
