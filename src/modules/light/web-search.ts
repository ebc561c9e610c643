/**
 * The web search of `POST /light/web`: one GET to the configured SearXNG-compatible endpoint, through
 * `safeFetch` (the address checked and pinned, no redirect, a deadline, at most 1 MiB read). The
 * endpoint is the operator's, so the on-premise address rules apply (a private address is allowed,
 * link-local never).
 */
import { errors } from '../../errors/index.js';
import { safeFetch } from '../../net/index.js';
import type { ServiceContext } from '../../core/context.js';

export interface WebHit {
  title: string;
  url: string;
  snippet: string;
}

/** Results read per query. */
export const WEB_RESULTS = 5;

export async function searchWeb(ctx: ServiceContext, endpoint: string, query: string, timeoutMs: number): Promise<WebHit[]> {
  const url = new URL(endpoint);
  url.searchParams.set('q', query);
  url.searchParams.set('format', 'json');
  let body: string;
  try {
    const res = await safeFetch(url.toString(), {
      headers: { accept: 'application/json' },
      timeoutMs,
      maxResponseBytes: 1024 * 1024,
      deployment: 'onprem',
      resolve: ctx.app.resolve,
      signal: ctx.signal,
    });
    if (res.status < 200 || res.status >= 300) throw new Error(`HTTP ${res.status}`);
    body = res.body;
  } catch (err) {
    ctx.log.warn({ err }, 'web search failed');
    throw errors.webSearchFailed();
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw errors.webSearchFailed();
  }
  const results = (parsed as { results?: unknown }).results;
  if (!Array.isArray(results)) throw errors.webSearchFailed();
  const hits: WebHit[] = [];
  for (const r of results as Record<string, unknown>[]) {
    if (!r || typeof r.url !== 'string') continue;
    const snippet = typeof r.content === 'string' ? r.content : '';
    hits.push({ title: typeof r.title === 'string' ? r.title : r.url, url: r.url, snippet: snippet.slice(0, 2_000) });
    if (hits.length === WEB_RESULTS) break;
  }
  return hits;
}
