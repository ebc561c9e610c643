import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface CliResult {
  code: number;
  /** stdout parsed, on success (the CLI prints one JSON object); null on a non-zero exit. */
  json: any;
  stdout: string;
  stderr: string;
}

/**
 * Runs the admin CLI (`npm run --silent svc -- ...args`) in a process of its own with `env` added to this
 * one's (at least DATABASE_URL); a non-zero exit is returned with its stderr, not thrown.
 */
export async function runCli(env: Record<string, string | undefined>, ...args: string[]): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run('npm', ['run', '--silent', 'svc', '--', ...args], {
      env: { ...process.env, LOG_LEVEL: 'silent', ...env },
      cwd: new URL('../..', import.meta.url).pathname,
    });
    return { code: 0, json: JSON.parse(stdout), stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, json: null, stdout: e.stdout, stderr: e.stderr };
  }
}
