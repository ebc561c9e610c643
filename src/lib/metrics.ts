import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry, collectDefaultMetrics, Counter, Gauge, Histogram, Registry, type GaugeConfiguration } from 'prom-client';

/**
 * The process's Prometheus instruments (docs/operations.md, "Metrics"): counters and histograms that
 * the code paths record as things happen, in one registry of their own (not prom-client's global one).
 * Gauges that need the database are not here: they are read at scrape time by the app
 * (`src/app/metrics.ts`), never per request.
 *
 * Labels are bounded by construction: route templates (never paths), a closed set of methods, catalogue
 * error codes, configured provider and model names, closed outcome sets. No label carries a key, a
 * secret, an id of a person or anything a client chose.
 */
export const instruments = new Registry();

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
const MODEL_SECONDS = [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 40, 60, 120];

const httpDuration = new Histogram({
  name: 'svc_http_request_duration_seconds',
  help: 'HTTP requests by route template, method and status: latency in seconds (its _count is the number of requests)',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: SECONDS,
  registers: [instruments],
});

const requestStages = new Histogram({
  name: 'svc_request_stage_seconds',
  help: 'With SVC_STAGE_TIMING=on: time requests spent in each stage (pipeline steps, the model call, each group commit and the wait for the batch in flight before it, `.queued`), by route template, in seconds',
  labelNames: ['route', 'stage'] as const,
  buckets: [0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  registers: [instruments],
});

const modelCalls = new Counter({
  name: 'svc_model_calls_total',
  help: 'Model calls by provider, model and outcome (ok, failed, aborted)',
  labelNames: ['provider', 'model', 'outcome'] as const,
  registers: [instruments],
});
const modelDuration = new Histogram({
  name: 'svc_model_call_duration_seconds',
  help: 'Model calls by provider and model: time from the call to its last token, in seconds',
  labelNames: ['provider', 'model'] as const,
  buckets: MODEL_SECONDS,
  registers: [instruments],
});
const modelFirstToken = new Histogram({
  name: 'svc_model_time_to_first_token_seconds',
  help: 'Streamed model calls by provider and model: time to the first token, in seconds',
  labelNames: ['provider', 'model'] as const,
  buckets: MODEL_SECONDS,
  registers: [instruments],
});
const modelTokens = new Counter({
  name: 'svc_model_tokens_total',
  help: 'Tokens of completed model calls by provider, model and direction (in: prompt, out: completion)',
  labelNames: ['provider', 'model', 'direction'] as const,
  registers: [instruments],
});

const questions = new Counter({
  name: 'svc_questions_consumed_total',
  help: 'Questions written to the ledger, by model class',
  labelNames: ['model_class'] as const,
  registers: [instruments],
});
const controls = new Counter({
  name: 'svc_controls_consumed_total',
  help: 'Controls (verifier reports) written to the ledger',
  registers: [instruments],
});
const refusals = new Counter({
  name: 'svc_refusals_total',
  help: 'Requests refused for payment, permission or rate (status 402, 403, 429), by status and error code',
  labelNames: ['status', 'code'] as const,
  registers: [instruments],
});

const webhookAttempts = new Counter({
  name: 'svc_webhook_attempts_total',
  help: 'Webhook delivery attempts by outcome (delivered: 2xx; rejected: another status; unreachable: no answer, timeout or refused address) and kind (automatic, single: test or replay)',
  labelNames: ['outcome', 'kind'] as const,
  registers: [instruments],
});

const flowRunsFinished = new Counter({
  name: 'svc_flow_runs_finished_total',
  help: 'Flow runs that ended, by final state (succeeded, failed, cancelled)',
  labelNames: ['state'] as const,
  registers: [instruments],
});

const ingestionDuration = new Histogram({
  name: 'svc_ingestion_job_duration_seconds',
  help: 'Ingestion jobs by outcome (ingested, failed, retried): time from the claim to the end, in seconds',
  labelNames: ['outcome'] as const,
  buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
  registers: [instruments],
});

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

let defaultsStarted = false;

/**
 * How often the event-loop delay histogram (`nodejs_eventloop_lag_p50`, `_p99`, `_max`…) samples the loop.
 * At 10 ms its timer woke an idle process 100 times a second (issue 28: the idle service's own CPU, and one
 * wake-up between two calls at one connection); a loop held longer than this still shows in it.
 */
export const EVENT_LOOP_SAMPLE_MS = 100;

/** Node's own metrics (event-loop lag, CPU, memory, GC, handles) in the same registry; once per process. */
export function startProcessMetrics(): void {
  if (defaultsStarted) return;
  defaultsStarted = true;
  collectDefaultMetrics({ register: instruments, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
}

/** What the code paths record. Each call is a few map lookups: cheap enough for every request. */
export const metrics = {
  httpRequest(method: string, route: string, status: number, seconds: number): void {
    httpDuration.observe({ method: METHODS.has(method) ? method : 'other', route, status: String(status) }, seconds);
  },
  /** A request's stages (stage timing on: src/lib/stage-timing.ts); stage names are the code's own. */
  requestStages(route: string, stages: [string, number][]): void {
    for (const [stage, seconds] of stages) requestStages.observe({ route, stage }, seconds);
  },
  modelCall(
    labels: { provider: string; model: string },
    outcome: 'ok' | 'failed' | 'aborted',
    timing: { seconds: number; firstTokenSeconds?: number },
    usage?: { promptTokens: number; completionTokens: number },
  ): void {
    modelCalls.inc({ ...labels, outcome });
    modelDuration.observe(labels, timing.seconds);
    if (timing.firstTokenSeconds !== undefined) modelFirstToken.observe(labels, timing.firstTokenSeconds);
    if (usage) {
      modelTokens.inc({ ...labels, direction: 'in' }, usage.promptTokens);
      modelTokens.inc({ ...labels, direction: 'out' }, usage.completionTokens);
    }
  },
  questionsConsumed(modelClass: string, count: number): void {
    if (count > 0) questions.inc({ model_class: modelClass }, count);
  },
  controlConsumed(): void {
    controls.inc();
  },
  /** Counts a rendered error when it is a refusal (402, 403, 429); other statuses are not refusals. */
  refusal(status: number, code: string | undefined): void {
    if (status === 402 || status === 403 || status === 429) refusals.inc({ status: String(status), code: code ?? 'none' });
  },
  webhookAttempt(outcome: 'delivered' | 'rejected' | 'unreachable', kind: string): void {
    webhookAttempts.inc({ outcome, kind });
  },
  flowRunFinished(state: string): void {
    flowRunsFinished.inc({ state });
  },
  ingestionJob(outcome: 'ingested' | 'failed' | 'retried', seconds: number): void {
    ingestionDuration.observe({ outcome }, seconds);
  },
};

/**
 * The metrics of one app: the process's instruments plus the app's scrape-time gauges (database counts,
 * the connection pool), rendered in the Prometheus text format. In a server process of several
 * (`SVC_WORKERS` > 1, src/app/cluster.ts) a scrape asks the supervisor, which gathers every process's
 * metrics with prom-client's `AggregatorRegistry` and answers with their aggregate.
 */
export class AppMetrics {
  /** The app's scrape-time gauges (`gauge()`), beside the process's `instruments`. */
  readonly registry = new Registry();
  readonly contentType = instruments.contentType;

  /** A gauge of this app, set at scrape time by `collect` (given the gauge). */
  gauge<T extends string>(
    config: Omit<GaugeConfiguration<T>, 'collect' | 'registers'>,
    collect?: (gauge: Gauge<T>) => Promise<void> | void,
  ): Gauge<T> {
    return new Gauge<T>({
      ...config,
      registers: [this.registry],
      ...(collect ? { collect(this: Gauge<T>) { return collect(this); } } : {}),
    });
  }

  /** This process's own metrics, in the text format. */
  local(): Promise<string> {
    return Registry.merge([instruments, this.registry]).metrics();
  }

  /** What `GET /metrics` answers: the aggregate of every server process under a supervisor, else this process's. */
  scrape(): Promise<string> {
    return cluster.isWorker ? askSupervisor() : this.local();
  }

  /** In a server process of several: answers the supervisor's collection requests with this app's metrics. */
  serveSupervisor(): void {
    if (!cluster.isWorker) return;
    process.on('message', (message: { type?: string; id?: number } | null) => {
      if (message?.type !== COLLECT_REQUEST) return;
      Promise.all([instruments.getMetricsAsJSON(), this.registry.getMetricsAsJSON()]).then(
        ([own, app]) => process.send?.({ type: COLLECT_ANSWER, id: message.id, metrics: [...own, ...app] }),
        (err: unknown) => process.send?.({ type: COLLECT_ANSWER, id: message.id, error: err instanceof Error ? err.message : String(err) }),
      );
    });
  }
}

const SCRAPE_REQUEST = 'svc:metrics-scrape';
const SCRAPE_ANSWER = 'svc:metrics-scrape-answer';
const SUPERVISOR_TIMEOUT_MS = 15_000;
let scrapes = 0;

interface ScrapeAnswer {
  type: typeof SCRAPE_ANSWER;
  id: number;
  text?: string;
  error?: string;
}

/** A server process's scrape: the supervisor aggregates every process (its own included) and answers. */
function askSupervisor(): Promise<string> {
  const id = ++scrapes;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => finish(new Error('the supervisor did not answer the metrics scrape')), SUPERVISOR_TIMEOUT_MS);
    const onMessage = (message: unknown) => {
      const answer = message as Partial<ScrapeAnswer> | null;
      if (answer?.type !== SCRAPE_ANSWER || answer.id !== id) return;
      finish(answer.error !== undefined ? new Error(answer.error) : null, answer.text ?? '');
    };
    const finish = (err: Error | null, text = '') => {
      clearTimeout(timer);
      process.off('message', onMessage);
      if (err) reject(err);
      else resolve(text);
    };
    process.on('message', onMessage);
    process.send!({ type: SCRAPE_REQUEST, id });
  });
}

const COLLECT_REQUEST = 'svc:metrics-collect';
const COLLECT_ANSWER = 'svc:metrics-collected';

/**
 * In the supervisor of several server processes: answers a process's scrape with the aggregate of every
 * process that listens (counters and histograms summed, gauges by their `aggregator`: prom-client's
 * `AggregatorRegistry.aggregate`). Only listening processes are asked: one still starting has no metrics
 * to give yet (prom-client's own `clusterMetrics` would wait for it and time out).
 */
export function superviseMetrics(): void {
  const serving = new Set<Worker>();
  cluster.on('listening', (worker) => serving.add(worker));
  cluster.on('exit', (worker) => serving.delete(worker));
  let collections = 0;
  const pending = new Map<number, { answers: object[][]; waiting: Set<Worker>; done: (err: Error | null) => void }>();
  cluster.on('message', (worker, message: { type?: string; id?: number; metrics?: object[]; error?: string } | null) => {
    if (message?.type === COLLECT_ANSWER) {
      const collection = pending.get(message.id ?? -1);
      if (!collection || !collection.waiting.delete(worker)) return;
      if (message.error !== undefined) return collection.done(new Error(message.error));
      collection.answers.push(message.metrics ?? []);
      if (collection.waiting.size === 0) collection.done(null);
      return;
    }
    if (message?.type !== SCRAPE_REQUEST) return;
    const reply = (answer: Omit<ScrapeAnswer, 'type' | 'id'>) => {
      if (worker.isConnected()) worker.send({ type: SCRAPE_ANSWER, id: message.id, ...answer });
    };
    const id = ++collections;
    const answers: object[][] = [];
    const waiting = new Set([...serving].filter((w) => w.isConnected()));
    const timer = setTimeout(() => done(new Error('a server process did not give its metrics in time')), SUPERVISOR_TIMEOUT_MS);
    const done = (err: Error | null) => {
      if (!pending.delete(id)) return;
      clearTimeout(timer);
      if (err) return reply({ error: err.message });
      AggregatorRegistry.aggregate(answers as Parameters<typeof AggregatorRegistry.aggregate>[0])
        .metrics()
        .then(
          (text) => reply({ text }),
          (e: unknown) => reply({ error: e instanceof Error ? e.message : String(e) }),
        );
    };
    pending.set(id, { answers, waiting, done });
    for (const w of waiting) w.send({ type: COLLECT_REQUEST, id });
    if (waiting.size === 0) done(null);
  });
}
