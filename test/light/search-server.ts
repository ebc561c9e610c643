/**
 * A SearXNG-compatible search server on loopback for `POST /light/web`: `GET /search?q=…&format=json`
 * answers `{ results }` from what the test set, and keeps every query it received (what left the service).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SearchServer {
  url: string;
  received: { q: string | null; format: string | null }[];
  results: { title: string; url: string; content: string }[];
  status: number;
  close(): Promise<void>;
}

export async function startSearchServer(): Promise<SearchServer> {
  const state: Omit<SearchServer, 'url' | 'close'> = { received: [], results: [], status: 200 };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    state.received.push({ q: url.searchParams.get('q'), format: url.searchParams.get('format') });
    res.writeHead(state.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ query: url.searchParams.get('q'), results: state.results }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(state, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/search`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
