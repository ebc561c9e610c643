import type { TracingHandle } from '../lib/tracing-start.js';
import { firstAdminLink } from '../modules/people/index.js';
import { bootstrapFirstWorkspace } from '../modules/provisioning/index.js';
import { isClusterWorker, superviseWorkers } from './cluster.js';
import { createApp, listen } from './create-app.js';
import { preloadBeforeListening } from './preload.js';
import { shutDownGracefully } from './shutdown.js';

/**
 * The server process (src/main.ts runs it once tracing is set up): the app on its port, the first-start
 * hint, and the signals that drain it. `tracing` is flushed at the end of a graceful shutdown.
 */
export async function serve(tracing?: TracingHandle): Promise<void> {
  // SVC_WORKERS > 1: this process supervises the server processes and never gets past this line.
  await superviseWorkers();
  const app = await createApp();
  const { config, log, orm, clock } = app.services;
  const first = await bootstrapFirstWorkspace({ em: orm.em.fork(), clock });
  preloadBeforeListening();
  const server = await listen(app.http, config.port, config.host, log);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const base = config.publicUrl ?? `http://localhost:${port}`;
  log.info({ port, database: config.databaseUrl ? 'postgresql' : `embedded (${config.dataDir})`, deployment: config.deployment, tracing: tracing !== undefined }, 'svc listening');

  if (first) {
    // Printed once, on the very first start: the only time this secret and this link are shown.
    const signIn = await firstAdminLink({ em: orm.em.fork(), clock, linkBase: new URL(base).origin }, first.user);
    process.stdout.write(
      [
        '',
        'First start: created workspace ' + first.workspace.id + ' with an unrestricted API key (shown only now):',
        '',
        '  ' + first.issued.secret,
        '',
        'Try it:',
        `  curl -s ${base}/v1/agents -H "Authorization: Bearer ${first.issued.secret}"`,
        `GraphiQL: ${base}/graphql (add the header Authorization: Bearer <key>)`,
        '',
        'Sign in as the first admin: choose your e-mail and password here (the link works once, until ' + signIn.expiresAt.toISOString() + '):',
        '',
        '  ' + signIn.link,
        '',
      ].join('\n') + '\n',
    );
  }

  /**
   * A copy of the signal that arrives this soon after the first is the same request relayed by a launcher
   * (npm and tsx pass on what the process group already received), not an operator insisting.
   */
  const RELAYED_WITHIN_MS = 2000;
  let stoppingSince: number | undefined;
  /**
   * SIGTERM/SIGINT: drain, then exit within SVC_SHUTDOWN_GRACE_MS (src/app/shutdown.ts). A second signal
   * exits at once, unless it comes within RELAYED_WITHIN_MS of the first (docs/operations.md).
   */
  function onSignal(signal: NodeJS.Signals) {
    if (stoppingSince !== undefined) {
      // A server process of several hears the group's copy and its supervisor's, however late the latter
      // comes on a loaded machine: only the supervisor escalates (src/app/cluster.ts).
      if (isClusterWorker() || performance.now() - stoppingSince < RELAYED_WITHIN_MS) {
        log.info({ signal }, 'signal repeated by a launcher during shutdown: still draining');
        return;
      }
      log.warn({ signal }, 'second signal during shutdown: exiting now');
      process.exit(1);
    }
    stoppingSince = performance.now();
    void shutDownGracefully(app, server, signal, { flush: tracing?.shutdown }).then((code) => process.exit(code));
  }
  // A server process of several waits for its supervisor's SIGTERM rather than the terminal's SIGINT (src/app/cluster.ts).
  process.on('SIGINT', isClusterWorker() ? () => {} : onSignal);
  process.on('SIGTERM', onSignal);
}
