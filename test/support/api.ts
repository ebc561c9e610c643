import { assertDocumented } from './openapi-validation.js';

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
  text: string;
}

/**
 * Minimal JSON client over fetch, sending the key as a Bearer token. Each response must be documented by
 * /openapi.json for its operation and status, with a body matching the documented schema.
 */
export function api(baseUrl: string, key?: string, extraHeaders: Record<string, string> = {}) {
  const call = async <T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse<T>> => {
    const res = await fetch(baseUrl + path, {
      method,
      headers: {
        ...(key ? { authorization: `Bearer ${key}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...extraHeaders,
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = text;
    }
    // Every answer is held to the server's own /openapi.json (openapi-validation.ts).
    await assertDocumented(baseUrl, method, path, res, () => parsed);
    return { status: res.status, body: parsed as T, headers: res.headers, text };
  };
  return {
    get: <T = any>(path: string, headers?: Record<string, string>) => call<T>('GET', path, undefined, headers),
    post: <T = any>(path: string, body?: unknown, headers?: Record<string, string>) => call<T>('POST', path, body ?? {}, headers),
    put: <T = any>(path: string, body?: unknown, headers?: Record<string, string>) => call<T>('PUT', path, body ?? {}, headers),
    patch: <T = any>(path: string, body?: unknown, headers?: Record<string, string>) => call<T>('PATCH', path, body ?? {}, headers),
    delete: <T = any>(path: string, headers?: Record<string, string>) => call<T>('DELETE', path, undefined, headers),
    graphql: async <T = any>(query: string, variables?: Record<string, unknown>) => {
      const res = await call<{ data: T; errors?: { message: string; extensions: Record<string, unknown> }[] }>('POST', '/graphql', {
        query,
        variables,
      });
      return res.body;
    },
  };
}
