/**
 * The load generator of bench/gateway-side-by-side.ts, run in a process of its own (never inside a
 * server's): autocannon against one URL, a warm-up first (discarded), then the measured run. Prints one
 * JSON line: requests/s, p50/p99 in milliseconds (from each response's own time, sub-millisecond; the
 * autocannon histogram rounds to whole milliseconds), errors, timeouts, non-2xx, body mismatches.
 *
 *   npx tsx bench/support/load.ts '{"url":"http://127.0.0.1:N/v1/chat/completions","connections":100,
 *     "durationS":10,"warmupS":2,"body":"{...}","headers":{"authorization":"Bearer ..."},"stream":false}'
 */
import autocannon from 'autocannon';

interface Spec {
  url: string;
  connections: number;
  durationS: number;
  warmupS: number;
  body: string;
  headers?: Record<string, string>;
  /** Streamed: each body must end with `data: [DONE]` (else it counts as a mismatch). */
  stream: boolean;
  /** A number of calls instead of a duration (the measured run's; the warm-up keeps its duration). */
  amount?: number;
}

const spec = JSON.parse(process.argv[2] ?? '{}') as Spec;

function once(durationS: number, record: boolean): Promise<{ result: autocannon.Result; times: number[] }> {
  const times: number[] = [];
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: spec.url,
        method: 'POST',
        connections: spec.connections,
        pipelining: 1,
        duration: durationS,
        ...(record && spec.amount ? { amount: spec.amount } : {}),
        timeout: 30,
        headers: { 'content-type': 'application/json', ...spec.headers },
        body: spec.body,
        ...(spec.stream ? { verifyBody: (body: unknown) => String(body).trimEnd().endsWith('data: [DONE]') } : {}),
      },
      (err, result) => (err ? reject(err) : resolve({ result, times })),
    );
    if (record) instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) times.push(responseTime);
    });
  });
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;

if (spec.warmupS > 0) await once(spec.warmupS, false);
const { result, times } = await once(spec.durationS, true);
times.sort((a, b) => a - b);
const responses = result.requests.total;
process.stdout.write(
  JSON.stringify({
    connections: spec.connections,
    durationS: result.duration,
    responses,
    ok: result['2xx'],
    rps: result['2xx'] / result.duration,
    p50: pct(times, 50),
    p99: pct(times, 99),
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    mismatches: result.mismatches,
  }) + '\n',
);
