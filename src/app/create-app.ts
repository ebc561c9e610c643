import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import express, { type Express } from 'express';
import { nativeBody } from '../../rest/errors.js';
import { mountFallbacks, mountRest } from '../../rest/index.js';
import { assignRequestId } from '../../rest/request-id.js';
import { loadConfig, type AppConfig } from '../config.js';
import type { Deps, Kernel } from '../core/deps.js';
import { openDatabase } from '../db/orm.js';
import { errors } from '../errors/index.js';
import { createGraphQLServer } from '../graphql/yoga.js';
import { toGraphQLError } from '../graphql/errors.js';
import { systemClock, type Clock } from '../lib/clock.js';
import { createLogger, type Logger } from '../lib/logger.js';
import { Shutdown } from '../lib/shutdown.js';
import { AppMetrics } from '../lib/metrics.js';
import { registerScrapeGauges } from './metrics.js';
import { createEmbeddingsRuntime, startEmbeddings, type EmbeddingsRuntime } from '../modules/knowledge/index.js';
import { createIngestionRuntime, startKnowledge } from '../modules/knowledge/index.js';
import { createKnowledgeRetriever } from '../modules/knowledge/index.js';
import { loadModelsConfig, ModelRegistry } from '../modules/models/index.js';
import { createMailer } from '../modules/people/index.js';
import { startPeopleSweep } from '../modules/people/index.js';
import { createPartnerRuntime } from '../modules/partner/index.js';
import { startPartner } from '../modules/partner/index.js';
import { type ChainHeads, createProofChain } from '../modules/proofs/index.js';
import { AdmissionHistory, createAnswerWrites } from '../modules/gateway/index.js';
import { createReportWrites } from '../modules/verify/index.js';
import { loadGatewaySigning, type GatewaySigning } from '../modules/proofs/index.js';
import { openSecretBox, type SecretBox } from '../modules/tools/index.js';
import { createToolRunner } from '../modules/tools/index.js';
import { startRateCounterSweep } from '../modules/usage/index.js';
import { createUsageRuntime } from '../modules/usage/index.js';
import { createKeysRuntime } from '../modules/keys/index.js';
import { createVerifyRuntime } from '../modules/verify/index.js';
import { createWebhooksRuntime, startWebhooks } from '../modules/webhooks/index.js';
import { admit } from '../pipeline/pipeline.js';
import { createFlowsRuntime, startFlows } from '../modules/flows/index.js';
import { startEventRuns } from '../modules/flows/index.js';
import type { Resolver } from '../net/index.js';
import { createLightRuntime } from '../modules/light/index.js';

export interface StartOptions {
  /** DNS resolver for outbound HTTP (tests simulate DNS answers); default: the system resolver. */
  resolve?: Resolver;
  config?: AppConfig;
  clock?: Clock;
  log?: Logger;
}

export interface RunningApp {
  services: Deps;
  http: Express;
  /** Stops background work and closes the database. */
  close(): Promise<void>;
}

/** Builds the express application: REST routes, GraphQL (yoga) and the fallbacks. */
export function buildHttpApp(services: Deps): Express {
  const http = express();
  http.disable('x-powered-by');
  // No weak ETag hashed over every JSON answer (a SHA-1 of each body, on the hot path of every call): answers
  // are per caller and not cached; the one ETag of the interface (a flow graph's version) is set by its route.
  http.set('etag', false);
  http.set('trust proxy', true);
  http.use(assignRequestId(services)); // first: every answer, refusals included, carries x-request-id
  // While draining, a request that still arrives on an open connection is answered and the connection closed.
  http.use((_req, res, next) => {
    if (services.shutdown.draining) res.shouldKeepAlive = false;
    next();
  });
  const yoga = createGraphQLServer(services);
  // Yoga parses its own bodies: mount it before the JSON parser.
  http.use(yoga.graphqlEndpoint, (req, res) => yoga.requestListener(req, res));
  mountRest(http, services);
  mountFallbacks(http, services);
  return http;
}

/**
 * The composition root: opens the database (applying migrations), builds the app's one dependency object
 * — the kernel, then each module's long-lived state and the ports between modules — freezes it, starts
 * the background work and builds the HTTP app. Nothing is added to the dependencies afterwards.
 */
export async function createApp(opts: StartOptions = {}): Promise<RunningApp> {
  const config = opts.config ?? loadConfig();
  const log = opts.log ?? createLogger(config.logLevel);
  const orm = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolMax: config.dbPoolMax });
  const closers: (() => Promise<void> | void)[] = [];
  const kernel: Kernel = {
    config,
    orm,
    clock: opts.clock ?? systemClock,
    log,
    resolve: opts.resolve,
    shutdown: new Shutdown(),
    metrics: new AppMetrics(),
    onClose: (fn) => closers.push(fn),
  };
  // Generated and persisted on first start; a bad SVC_GATEWAY_SIGNING_KEY or SVC_SECRETS_KEY stops the
  // start (database closed).
  let signing: GatewaySigning;
  let secretBox: SecretBox;
  let embeddings: EmbeddingsRuntime;
  try {
    signing = await loadGatewaySigning(kernel);
    secretBox = await openSecretBox(kernel);
    embeddings = await createEmbeddingsRuntime(kernel); // detects pgvector when an embeddings endpoint is set
  } catch (err) {
    await orm.close(true);
    throw err;
  }
  // The proof chains' last links, shared by the chain's appender and the gateway answers' (one line per workspace).
  const chainHeads: ChainHeads = new Map();
  const services: Deps = Object.freeze({
    ...kernel,
    models: new ModelRegistry(loadModelsConfig(config.env)),
    usage: createUsageRuntime(kernel),
    keys: createKeysRuntime(kernel),
    verify: createVerifyRuntime(),
    signing,
    proofChain: createProofChain(kernel, signing, chainHeads),
    answerWrites: createAnswerWrites(kernel, signing, chainHeads),
    admissionHistory: new AdmissionHistory(config.admissionOverlap === 'granted'),
    reportWrites: createReportWrites(kernel, signing, chainHeads),
    secretBox,
    webhooks: createWebhooksRuntime([startEventRuns]), // flows' trigger.event: runs written in the event's transaction
    ingestion: createIngestionRuntime(log),
    embeddings,
    knowledge: createKnowledgeRetriever(),
    tools: createToolRunner(),
    mailer: createMailer(kernel),
    flows: createFlowsRuntime(admit), // a flow step's service call opens its request through the pipeline
    partner: createPartnerRuntime(kernel),
    light: createLightRuntime(config.env),
  });
  kernel.onClose(() => services.mailer.close());
  registerScrapeGauges(services); // GET /metrics: backlogs and the pool, read at scrape time
  startRateCounterSweep(services);
  startPeopleSweep(services); // sessions over, links used or expired, throttle windows past
  startWebhooks(services); // outbox wake-up; worker and retry sweep when background jobs run
  startFlows(services); // flow worker (runs, schedules, approval timeouts) when background jobs run
  startPartner(services); // month-end invoices when background jobs run
  startKnowledge(services); // ingestion worker (resumes jobs left running) and staleness watch when background jobs run
  startEmbeddings(services); // passage vectors back-filled when an embeddings endpoint is set and background jobs run
  const http = buildHttpApp(services);
  return {
    services,
    http,
    async close() {
      // Without a drain first (tests, a failed start), work in hand is given back at once.
      services.shutdown.giveUp();
      for (const fn of closers.reverse()) await fn();
      await orm.close(true);
    },
  };
}

const KEEP_ALIVE_MS = 65_000;

export function listen(http: Express, port: number, host: string, log?: Logger): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = http.listen(port, host, () => resolve(server));
    // Idle keep-alive connections outlive the clients' and proxies' own idle timeouts (undici 4 s, common
    // load balancers 60 s): a client never reuses a socket the server is closing at that very moment
    // (ECONNRESET), also when a long synchronous stretch (the embedded database) delays both timers.
    server.keepAliveTimeout = KEEP_ALIVE_MS;
    server.headersTimeout = KEEP_ALIVE_MS + 1_000;
    server.once('error', reject);
    server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => answerClientError(err, socket, log));
  });
}

/** Whether the refused request was sent to /graphql or /graphql/stream (its request line is in the packet Node kept). */
function isGraphQLRequest(err: NodeJS.ErrnoException & { rawPacket?: Buffer }): boolean {
  const start = err.rawPacket?.subarray(0, 64).toString('latin1') ?? '';
  return /^[A-Z]+ \/graphql(?:\/stream)?(?:[?#/ ]|$)/.test(start);
}

/**
 * Requests Node's HTTP parser refuses before any route runs (oversized or too many headers, a request
 * line over the header limit, NUL or CR in a header value, garbage) get the native JSON error shape
 * instead of Node's plain-text answer (GraphQL over HTTP's shape for a request to /graphql), then the
 * connection closes. A socket that is gone or already
 * answering is just destroyed.
 */
function answerClientError(err: NodeJS.ErrnoException, socket: Duplex, log: Logger | undefined): void {
  const answering = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage?.headersSent;
  if (err.code === 'ECONNRESET' || !socket.writable || answering) {
    socket.destroy();
    return;
  }
  const error =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? errors.headersTooLarge()
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? errors.requestTimeout()
        : errors.malformedRequest();
  log?.info({ clientError: err.code ?? err.message, status: error.status }, 'malformed HTTP request refused');
  const body = JSON.stringify(isGraphQLRequest(err) ? { errors: [toGraphQLError(error).toJSON()] } : nativeBody(error));
  socket.end(
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? 'Error'}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}
