import type { Server } from 'node:http';
import express, { type Express } from 'express';
import { mountFallbacks, mountRest } from '../../rest/index.js';
import { loadConfig, type AppConfig } from '../config.js';
import { openDatabase } from '../db/orm.js';
import { createGraphQLServer } from '../graphql/yoga.js';
import { systemClock, type Clock } from '../lib/clock.js';
import { createLogger, type Logger } from '../lib/logger.js';
import { loadModelsConfig, ModelRegistry } from '../modules/models/registry.js';
import { loadGatewayKey } from '../modules/proofs/signing-key.js';
import { startRateCounterSweep } from '../modules/usage/rate-limit.service.js';
import { startWebhooks } from '../modules/webhooks/runtime.js';
import { startKnowledge } from '../modules/knowledge/knowledge.runtime.js';
import { knowledgeRetriever } from '../modules/knowledge/retriever.js';
import { secretBox } from '../modules/tools/secret-box.js';
import { toolRunner } from '../modules/tools/tool-runner.js';
import type { Resolver } from '../net/index.js';
import type { AppServices } from './services.js';

export interface StartOptions {
  /** DNS resolver for outbound HTTP (tests simulate DNS answers); default: the system resolver. */
  resolve?: Resolver;
  config?: AppConfig;
  clock?: Clock;
  log?: Logger;
}

export interface RunningApp {
  services: AppServices;
  http: Express;
  /** Stops background work and closes the database. */
  close(): Promise<void>;
}

/** Builds the express application: REST routes, GraphQL (yoga) and the fallbacks. */
export function buildHttpApp(services: AppServices): Express {
  const http = express();
  http.disable('x-powered-by');
  http.set('trust proxy', true);
  const yoga = createGraphQLServer(services);
  // Yoga parses its own bodies: mount it before the JSON parser.
  http.use(yoga.graphqlEndpoint, (req, res) => yoga.requestListener(req, res));
  mountRest(http, services);
  mountFallbacks(http, services);
  return http;
}

/** Opens the database (applying migrations), wires the services and builds the HTTP app. */
export async function createApp(opts: StartOptions = {}): Promise<RunningApp> {
  const config = opts.config ?? loadConfig();
  const log = opts.log ?? createLogger(config.logLevel);
  const orm = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolMax: config.dbPoolMax });
  const closers: (() => Promise<void> | void)[] = [];
  const models = new ModelRegistry(loadModelsConfig(config.env));
  const services: AppServices = { config, orm, clock: opts.clock ?? systemClock, log, models, onClose: (fn) => closers.push(fn) };
  // Generated and persisted on first start; a bad SVC_GATEWAY_SIGNING_KEY stops the start (database closed).
  await loadGatewayKey(services).catch(async (err: unknown) => {
    await orm.close(true);
    throw err;
  });
  startRateCounterSweep(services);
  if (opts.resolve) services.resolve = opts.resolve;
  startWebhooks(services); // outbox wake-up; worker and retry sweep when background jobs run
  // Tool-header key: configured or generated and persisted on first start; a bad SVC_SECRETS_KEY stops the start.
  await secretBox(services).catch(async (err: unknown) => {
    for (const fn of closers.reverse()) await fn();
    await orm.close(true);
    throw err;
  });
  services.knowledge = knowledgeRetriever;
  services.tools = toolRunner;
  startKnowledge(services); // ingestion worker (resumes jobs left running) and staleness watch when background jobs run
  const http = buildHttpApp(services);
  return {
    services,
    http,
    async close() {
      for (const fn of closers.reverse()) await fn();
      await orm.close(true);
    },
  };
}

export function listen(http: Express, port: number, host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = http.listen(port, host, () => resolve(server));
    server.once('error', reject);
  });
}
