import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

export interface ServerProcess {
  child: ChildProcess;
  baseUrl: string;
  port: number;
  /** The unrestricted key printed (right after `svc listening`) on the first start of an empty database; '' until then. */
  readonly firstKey: string;
  /** JSON log lines so far. */
  logs: LogLine[];
  /** Everything written on stdout and stderr so far (for failure messages). */
  output(): string;
  /** Resolves on the first log line with this message (rejects after `timeoutMs`). */
  waitForLog(msg: string, timeoutMs?: number): Promise<LogLine>;
  /** Resolves when the process has exited, with `performance.now()` at that moment. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  /** Sends a signal; returns `performance.now()` when sent. */
  signal(sig: NodeJS.Signals): number;
  /** SIGKILLs the process if it still runs, and waits for it. */
  kill(): Promise<void>;
}

/**
 * Runs the real server entry (`src/main.ts` under tsx) in a child process on a free loopback port,
 * with background jobs on, and resolves once it listens. The database must be PostgreSQL (`DATABASE_URL`).
 */
export async function startServerProcess(env: Record<string, string>, opts: { startTimeoutMs?: number } = {}): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--import', './test/support/orphan-guard.ts', 'src/main.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      SVC_DEPLOYMENT: 'onprem',
      SVC_BACKGROUND_JOBS: 'on',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  const logs: LogLine[] = [];
  const waiters: { msg: string; resolve: (l: LogLine) => void }[] = [];
  let pending = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    text += chunk;
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.startsWith('{')) continue;
      try {
        const parsed = JSON.parse(line) as LogLine;
        logs.push(parsed);
        for (const w of waiters.filter((w) => w.msg === parsed.msg)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(parsed);
        }
      } catch {
        // a line of the first-start hint
      }
    }
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal, at: performance.now() })),
  );

  const waitForLog = (msg: string, timeoutMs = 20_000) => {
    const seen = logs.find((l) => l.msg === msg);
    if (seen) return Promise.resolve(seen);
    return new Promise<LogLine>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no log line "${msg}" within ${timeoutMs} ms; output:\n${text}`)), timeoutMs);
      waiters.push({ msg, resolve: (l) => (clearTimeout(timer), resolve(l)) });
      void exited.then(() => {
        clearTimeout(timer);
        reject(new Error(`process exited before logging "${msg}"; output:\n${text}`));
      });
    });
  };

  let listening: LogLine;
  try {
    listening = await waitForLog('svc listening', opts.startTimeoutMs ?? 120_000);
  } catch (err) {
    // a start that timed out must not leave its server running (and loading the machine) after the test
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    throw err;
  }
  const port = Number(listening.port);
  return {
    child,
    port,
    baseUrl: `http://127.0.0.1:${port}`,
    get firstKey() {
      return /^\s+(svc_\S+)\s*$/m.exec(text)?.[1] ?? '';
    },
    logs,
    output: () => text,
    waitForLog,
    exited,
    signal(sig) {
      const at = performance.now();
      child.kill(sig);
      return at;
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
