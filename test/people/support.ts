import { Writable } from 'node:stream';
import { pino } from 'pino';
import { CookieJar } from 'tough-cookie';
import { ManualClock } from '../../src/lib/clock.js';
import type { RunningApp } from '../../src/app/create-app.js';
import { createPerson } from '../../src/modules/people/people.service.js';
import type { UserRole } from '../../src/core/access.js';
import { startTestApp } from '../support/app.js';
import type { TestDatabase } from '../support/database.js';
import { startSmtpServer, type LoopbackSmtp } from '../support/smtp-server.js';

/**
 * The app over HTTP on loopback, like test/support/app.ts, with what the people tests need besides:
 * every log line kept (at trace level) to check that no secret reaches them, and a loopback SMTP server.
 */
export interface PeopleApp {
  baseUrl: string;
  app: RunningApp;
  clock: ManualClock;
  db: TestDatabase;
  smtp: LoopbackSmtp;
  /** Every log line written so far. */
  logs: string[];
  workspace(opts?: { name?: string }): Promise<{ workspaceId: string; userId: string; key: string }>;
  person(workspaceId: string, opts: { email: string; password: string; role?: UserRole }): Promise<{ id: string }>;
  close(): Promise<void>;
}

export async function startPeopleApp(opts: { env?: Record<string, string>; smtp?: boolean } = {}): Promise<PeopleApp> {
  const smtp = await startSmtpServer();
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const t = await startTestApp({
    env: { LOG_LEVEL: 'trace', ...(opts.smtp === false ? {} : { SVC_SMTP_URL: smtp.url }), ...opts.env },
    log: pino({ level: 'trace' }, sink),
  });
  const actx = () => ({ em: t.app.services.orm.em.fork(), clock: t.clock });
  return {
    baseUrl: t.baseUrl,
    app: t.app,
    clock: t.clock,
    db: t.db,
    smtp,
    logs,
    workspace: (w = {}) => t.tenant({ name: w.name ?? 'People test', plan: 'cabinet', seats: 20 }),
    async person(workspaceId, p) {
      const user = await createPerson(actx(), workspaceId, { email: p.email, password: p.password, role: p.role ?? 'member' });
      return { id: user.id };
    },
    async close() {
      await t.close();
      await smtp.close();
    },
  };
}

export interface Reply<T = any> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

/**
 * A browser-like client: a cookie jar (tough-cookie) and, on writes, the `Origin` a page of the service
 * would send (override with `origin`, or `null` to send none). `ip` goes out as X-Forwarded-For, so
 * each test has its own address bucket in the sign-in throttle.
 */
export function browser(baseUrl: string, opts: { ip?: string; origin?: string | null } = {}) {
  const jar = new CookieJar();
  const call = async <T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply<T>> => {
    const url = baseUrl + path;
    const cookie = await jar.getCookieString(url);
    const origin = opts.origin === undefined ? baseUrl : opts.origin;
    const res = await fetch(url, {
      method,
      headers: {
        ...(cookie ? { cookie } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(method !== 'GET' && origin ? { origin } : {}),
        ...(opts.ip ? { 'x-forwarded-for': opts.ip } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    for (const c of res.headers.getSetCookie()) await jar.setCookie(c, url);
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = text;
    }
    return { status: res.status, body: parsed as T, text, headers: res.headers };
  };
  return {
    jar,
    get: <T = any>(path: string, headers?: Record<string, string>) => call<T>('GET', path, undefined, headers),
    post: <T = any>(path: string, body?: unknown, headers?: Record<string, string>) => call<T>('POST', path, body ?? {}, headers),
    graphql: async <T = any>(query: string, variables?: Record<string, unknown>, headers?: Record<string, string>) =>
      call<{ data: T; errors?: { message: string; extensions: Record<string, unknown> }[] }>('POST', '/graphql', { query, variables }, headers),
    signIn: (email: string, password: string) => call('POST', '/auth/sign-in', { email, password }),
    sessionToken: async (): Promise<string | undefined> => (await jar.getCookies(baseUrl)).find((c) => c.key === 'svc_session')?.value,
  };
}

export type Browser = ReturnType<typeof browser>;

/** The link of the first mail to `to` that carries one; the token is after `#invite=` or `#reset=`. */
export function linkIn(text: string): { link: string; kind: string; token: string } {
  const m = /(https?:\/\/\S+\/auth\/set-password#(invite|reset)=([A-Za-z0-9_-]+))/.exec(text);
  if (!m) throw new Error('no link in the mail');
  return { link: m[1], kind: m[2], token: m[3] };
}
