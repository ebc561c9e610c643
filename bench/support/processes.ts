import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** The process helpers the side-by-side benchmarks share (gateway-side-by-side.ts, webhooks-throughput.ts). */

/** A free loopback port, found by listening on port 0 and closing again. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux); NaN when unreadable. */
export function cpuSeconds(pid: number | undefined): number {
  if (!pid) return Number.NaN;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ 100)
  } catch {
    return Number.NaN;
  }
}

/**
 * CPU seconds (user + system) of a process's main thread alone (its thread whose id is the pid), from
 * /proc/PID/task/PID/stat; NaN when unreadable. `cpuSeconds` less this is the other threads' share: in a
 * Node process, V8's workers (concurrent compilation and GC) and libuv's pool.
 */
export function mainThreadCpuSeconds(pid: number | undefined): number {
  if (!pid) return Number.NaN;
  try {
    const fields = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

/** Stops every child still running: SIGTERM, then SIGKILL after `killAfterMs`. */
export async function stopChildren(children: ChildProcess[], killAfterMs: number): Promise<void> {
  await Promise.all(
    children
      .filter((c) => c.exitCode === null && c.signalCode === null)
      .map(
        (c) =>
          new Promise<void>((resolve) => {
            const kill = setTimeout(() => c.kill('SIGKILL'), killAfterMs);
            c.once('exit', () => {
              clearTimeout(kill);
              resolve();
            });
            c.kill('SIGTERM');
          }),
      ),
  );
}
