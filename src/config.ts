import { z } from 'zod';

const intFromEnv = (def: number) => z.coerce.number().int().positive().default(def);

/** The whole environment, read once and validated. Documented in README's configuration table. */
const ConfigSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z.string().url().optional(),
  SVC_DATA_DIR: z.string().default('./data'),
  SVC_DEPLOYMENT: z.enum(['cloud', 'onprem']).default('cloud'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SVC_PUBLIC_URL: z.string().optional(),
  // Origins besides the console's own that may call /graphql from a browser with credentials (docs/security.md).
  SVC_CORS_ORIGINS: z.string().default(''),
  SVC_BODY_LIMIT: z.string().default('1mb'),
  SVC_DB_POOL_MAX: intFromEnv(10),
  // Server processes sharing the port (node:cluster); 1 = this process only. Needs PostgreSQL (docs/scaling.md).
  SVC_WORKERS: z.coerce.number().int().min(1).max(256).default(1),
  // Route-level request ceilings per minute (SPEC's Limits table gives the defaults).
  SVC_RATE_GATEWAY: intFromEnv(60),
  SVC_RATE_KNOWLEDGE_QUERY: intFromEnv(60),
  SVC_RATE_VERIFY: intFromEnv(60),
  SVC_RATE_UPLOAD: intFromEnv(30),
  SVC_RATE_AGENT_CHAT: intFromEnv(30),
  SVC_RATE_HOOK_ADDRESS: intFromEnv(120),
  SVC_RATE_HOOK_FLOW: intFromEnv(60),
  SVC_RATE_DEVICE_PAIRING: intFromEnv(30),
  SVC_RATE_FLOW: intFromEnv(120),
  SVC_BACKGROUND_JOBS: z.enum(['on', 'off']).default('on'),
  // Key sealing secret tool-header values (32 bytes, base64 or hex); generated and stored in the database when unset.
  SVC_SECRETS_KEY: z.string().optional(),
  // Webhook acknowledgement timeout (SPEC: 10 s); lowered only by tests that exercise a hanging receiver.
  SVC_WEBHOOK_TIMEOUT_MS: intFromEnv(10_000),
  // Webhook attempts in flight at once per process (docs/webhooks.md, Throughput).
  SVC_WEBHOOK_CONCURRENCY: intFromEnv(256),
  // Keep-alive comment on chat streams (SPEC: every 15 s); lowered only by tests.
  SVC_STREAM_PING_MS: intFromEnv(15_000),
  // When a gateway answer or a chat turn's answer leaves (docs/decisions.md, "When a gateway answer leaves"): `flushed` once
  // its certificate (the gateway's) or its exchange (a chat turn's) and its ledger entry are on disk (the WAL flushed),
  // `committed` once they are committed (visible to every process, on disk within PostgreSQL's wal_writer_delay: a database
  // or machine crash in that window forgets them, a killed service does not).
  SVC_ANSWER_COMMIT: z.enum(['flushed', 'committed']).default('flushed'),
  // A gateway call's model request sent beside its admission (docs/gateway.md, "The model call beside its admission"):
  // `granted`, for a key whose last admission in this process (within a minute) was granted; `off`, never.
  SVC_ADMISSION_OVERLAP: z.enum(['granted', 'off']).default('granted'),
  // Graceful shutdown on SIGTERM/SIGINT: the process always exits within this time (docs/operations.md).
  SVC_SHUTDOWN_GRACE_MS: z.coerce.number().int().min(1000).max(600_000).default(25_000),
  // Outgoing mail (invitations, password resets): an SMTP URL for nodemailer; unset, .eml files under the data directory.
  SVC_SMTP_URL: z.string().url().optional(),
  SVC_MAIL_FROM: z.string().default('svc <no-reply@localhost>'),
  // Flows (docs/flows.md): a run's claim lease (a dead process's run is taken over after it), the default
  // approval timeout, and the workers' safety-net poll.
  SVC_FLOW_LEASE_MS: z.coerce.number().int().min(500).max(600_000).default(15_000),
  SVC_FLOW_APPROVAL_TIMEOUT_MS: intFromEnv(24 * 60 * 60 * 1000),
  SVC_FLOW_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(1_000),
  // Partner payments through Stripe (docs/partner.md): the secret key, the webhook signing secret, and
  // the API's address (default Stripe's own; tests point it at a loopback fake).
  SVC_STRIPE_SECRET_KEY: z.string().optional(),
  SVC_STRIPE_WEBHOOK_SECRET: z.string().optional(),
  SVC_STRIPE_API_URL: z.string().url().optional(),
  // Days an integrator's invoice may stay unpaid past its due date before its clients' keys get 403 provider_unpaid.
  SVC_PARTNER_GRACE_DAYS: z.coerce.number().int().min(0).max(365).default(7),
  // GET /metrics (docs/operations.md, "Metrics"): with a token, `Authorization: Bearer <token>` from anywhere;
  // without one, loopback addresses only.
  SVC_METRICS_TOKEN: z.string().optional(),
});

export type AppConfig = {
  port: number;
  host: string;
  databaseUrl?: string;
  dataDir: string;
  deployment: 'cloud' | 'onprem';
  logLevel: string;
  publicUrl?: string;
  /** Origins (scheme://host[:port]) trusted besides the service's own: CORS with credentials and the CSRF check. */
  corsOrigins: string[];
  bodyLimit: string;
  dbPoolMax: number;
  workers: number;
  routeRates: {
    gateway: number;
    knowledgeQuery: number;
    verify: number;
    upload: number;
    agentChat: number;
    /** `POST /engine/hooks/:flowId` per client address (before the signature is checked). */
    hookPerAddress: number;
    /** `POST /engine/hooks/:flowId` per flow (once the signature is checked). */
    hookPerFlow: number;
    /** `POST /partner/devices/code` and `/token`, each per client address. */
    devicePairing: number;
  };
  backgroundJobs: boolean;
  secretsKey?: string;
  webhookTimeoutMs: number;
  webhookConcurrency: number;
  streamPingMs: number;
  /** When a gateway answer or a chat turn's answer leaves: its write flushed to disk, or committed only (SVC_ANSWER_COMMIT). */
  answerCommit: 'flushed' | 'committed';
  /** Whether a gateway call's model request may go beside its admission (SVC_ADMISSION_OVERLAP). */
  admissionOverlap: 'granted' | 'off';
  shutdownGraceMs: number;
  smtpUrl?: string;
  mailFrom: string;
  /** `ratePerMinute`: the operations (agent steps) a flow's runs may start per minute, all runs together. */
  flows: { leaseMs: number; approvalTimeoutMs: number; pollMs: number; ratePerMinute: number };
  stripe: { secretKey?: string; webhookSecret?: string; apiUrl?: string };
  partnerGraceDays: number;
  env: Record<string, string | undefined>;
  /** Bearer token of GET /metrics; unset: served to loopback addresses only. */
  metricsToken?: string;
};

/**
 * SVC_CORS_ORIGINS: a comma- or space-separated list of origins, each `scheme://host[:port]` with nothing
 * after it. `*` is refused: origins trusted with people's cookies are named one by one.
 */
function parseOrigins(list: string): string[] {
  const origins = list.split(/[\s,]+/).filter(Boolean);
  return origins.map((value) => {
    let url: URL | undefined;
    try {
      url = new URL(value);
    } catch {
      url = undefined;
    }
    if (!url || value.includes('*') || !['http:', 'https:'].includes(url.protocol) || url.origin !== value.replace(/\/$/, '')) {
      throw new Error(`Invalid configuration: SVC_CORS_ORIGINS: '${value}' is not an origin (scheme://host[:port], no path, no wildcard)`);
    }
    return url.origin;
  });
}

export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`Invalid configuration: ${issue?.path.join('.')}: ${issue?.message}`);
  }
  const c = parsed.data;
  return {
    port: c.PORT,
    host: c.HOST,
    databaseUrl: c.DATABASE_URL,
    dataDir: c.SVC_DATA_DIR,
    deployment: c.SVC_DEPLOYMENT,
    logLevel: c.LOG_LEVEL,
    publicUrl: c.SVC_PUBLIC_URL,
    corsOrigins: parseOrigins(c.SVC_CORS_ORIGINS),
    bodyLimit: c.SVC_BODY_LIMIT,
    dbPoolMax: c.SVC_DB_POOL_MAX,
    workers: c.SVC_WORKERS,
    routeRates: {
      gateway: c.SVC_RATE_GATEWAY,
      knowledgeQuery: c.SVC_RATE_KNOWLEDGE_QUERY,
      verify: c.SVC_RATE_VERIFY,
      upload: c.SVC_RATE_UPLOAD,
      agentChat: c.SVC_RATE_AGENT_CHAT,
      hookPerAddress: c.SVC_RATE_HOOK_ADDRESS,
      hookPerFlow: c.SVC_RATE_HOOK_FLOW,
      devicePairing: c.SVC_RATE_DEVICE_PAIRING,
    },
    backgroundJobs: c.SVC_BACKGROUND_JOBS === 'on',
    secretsKey: c.SVC_SECRETS_KEY?.trim() || undefined,
    webhookTimeoutMs: c.SVC_WEBHOOK_TIMEOUT_MS,
    webhookConcurrency: c.SVC_WEBHOOK_CONCURRENCY,
    streamPingMs: c.SVC_STREAM_PING_MS,
    answerCommit: c.SVC_ANSWER_COMMIT,
    admissionOverlap: c.SVC_ADMISSION_OVERLAP,
    shutdownGraceMs: c.SVC_SHUTDOWN_GRACE_MS,
    smtpUrl: c.SVC_SMTP_URL?.trim() || undefined,
    mailFrom: c.SVC_MAIL_FROM,
    flows: { leaseMs: c.SVC_FLOW_LEASE_MS, approvalTimeoutMs: c.SVC_FLOW_APPROVAL_TIMEOUT_MS, pollMs: c.SVC_FLOW_POLL_MS, ratePerMinute: c.SVC_RATE_FLOW },
    stripe: {
      secretKey: c.SVC_STRIPE_SECRET_KEY?.trim() || undefined,
      webhookSecret: c.SVC_STRIPE_WEBHOOK_SECRET?.trim() || undefined,
      apiUrl: c.SVC_STRIPE_API_URL,
    },
    partnerGraceDays: c.SVC_PARTNER_GRACE_DAYS,
    metricsToken: c.SVC_METRICS_TOKEN?.trim() || undefined,
    env,
  };
}
