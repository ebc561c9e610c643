import { createApp, listen } from './app/create-app.js';
import { bootstrapFirstWorkspace } from './modules/workspaces/workspaces.service.js';

const app = await createApp();
const { config, log, orm, clock } = app.services;
const first = await bootstrapFirstWorkspace({ em: orm.em.fork(), clock });
const server = await listen(app.http, config.port, config.host);
const address = server.address();
const port = typeof address === 'object' && address ? address.port : config.port;
const base = config.publicUrl ?? `http://localhost:${port}`;
log.info({ port, database: config.databaseUrl ? 'postgresql' : `embedded (${config.dataDir})`, deployment: config.deployment }, 'svc listening');

if (first) {
  // Printed once, on the very first start: the only time this secret is shown.
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
    ].join('\n') + '\n',
  );
}

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, 'shutting down');
  server.close();
  server.closeAllConnections();
  await app.close();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
