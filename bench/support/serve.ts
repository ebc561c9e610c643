import type { Server } from 'node:http';

/**
 * Listens on loopback (PORT, or any free port), prints `{"port":N}` for the benchmark that spawned this
 * process, and on SIGTERM closes every connection, runs `stop` and exits.
 */
export function serveForBench(server: Server, stop: () => Promise<void> = async () => {}): void {
  server.keepAliveTimeout = 60_000;
  server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
    const address = server.address();
    process.stdout.write(JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 }) + '\n');
  });
  process.on('SIGTERM', () => {
    server.closeAllConnections();
    server.close(() => void stop().then(() => process.exit(0)));
  });
}
