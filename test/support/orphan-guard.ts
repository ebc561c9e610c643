/**
 * Loaded with `--import` into the server processes the tests spawn (test/support/server-process.ts): the
 * process kills itself when its parent (the vitest worker) is gone. A worker stopped by a timeout or a
 * SIGKILL runs no cleanup, and on a busy machine the servers it started were left running for the rest of
 * the session (re-parented to PID 1), adding load to every later test. Checked once a second on an
 * unref'd timer, so it keeps no process alive and does nothing while the parent lives.
 */
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) process.kill(process.pid, 'SIGKILL');
}, 1_000).unref();
