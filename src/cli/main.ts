import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { loadConfig, type AppConfig } from '../config.js';
import { backupEmbedded, restoreEmbedded } from '../db/backup.js';
import { openDatabase, type Orm } from '../db/orm.js';
import { errors, isDomainError } from '../errors/index.js';
import { systemClock } from '../lib/clock.js';
import { pino } from 'pino';
import { createMailer } from '../modules/people/index.js';
import { ZodError } from 'zod';
import { runCommand } from './commands.js';

/**
 * Admin command line: `npm run --silent svc -- <command>`. Prints one JSON object on stdout;
 * exits non-zero with a readable message on stderr for bad input.
 */
async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      name: { type: 'string' },
      plan: { type: 'string' },
      seats: { type: 'string' },
      workspace: { type: 'string' },
      user: { type: 'string' },
      scopes: { type: 'string' },
      readonly: { type: 'boolean' },
      'rate-per-minute': { type: 'string' },
      'monthly-question-limit': { type: 'string' },
      'expires-at': { type: 'string' },
      'started-at': { type: 'string' },
      questions: { type: 'string' },
      month: { type: 'string' },
      email: { type: 'string' },
      role: { type: 'string' },
      password: { type: 'string' },
      sandbox: { type: 'boolean' },
      'grace-days': { type: 'string' },
      key: { type: 'string' },
      out: { type: 'string' },
      from: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || positionals.length === 0) {
    process.stdout.write(USAGE);
    return values.help ? 0 : 1;
  }
  const config = loadConfig();
  if (positionals[0] === 'backup' || positionals[0] === 'restore') {
    process.stdout.write(JSON.stringify(await backupCommand(config, positionals[0], values)) + '\n');
    return 0;
  }
  let orm: Orm | undefined;
  try {
    orm = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolMax: 2 });
    // Logs go to stderr: stdout holds the one JSON answer.
    const log = pino({ level: config.logLevel, base: { service: 'svc-cli' } }, pino.destination(2));
    const mailer = createMailer({ config, log });
    const linkBase = config.publicUrl ? new URL(config.publicUrl).origin : `http://localhost:${config.port}`;
    try {
      const result = await runCommand({ em: orm.em.fork(), clock: systemClock, mailer, log, linkBase }, positionals, values);
      process.stdout.write(JSON.stringify(result) + '\n');
    } finally {
      mailer.close();
    }
    return 0;
  } finally {
    await orm?.close(true);
  }
}

/**
 * `backup --out FILE` / `restore --from FILE`: the embedded database only, with the server stopped
 * (docs/operations.md, "Backups"); a PostgreSQL deployment is backed up with pg_dump.
 */
async function backupCommand(config: AppConfig, command: 'backup' | 'restore', flags: { out?: string; from?: string }): Promise<unknown> {
  if (config.databaseUrl) {
    throw errors.validation(null, `${command} is for the embedded database; with DATABASE_URL use pg_dump and pg_restore (docs/operations.md, "Backups")`);
  }
  if (config.dataDir === 'memory://') throw errors.validation(null, 'SVC_DATA_DIR=memory:// holds nothing to back up or restore');
  if (command === 'backup') {
    if (!flags.out) throw errors.validation('--out', '--out is required');
    return { backup: await backupEmbedded(config.dataDir, resolve(flags.out)) };
  }
  if (!flags.from) throw errors.validation('--from', '--from is required');
  return { restore: { ...(await restoreEmbedded(config.dataDir, resolve(flags.from))), from: resolve(flags.from) } };
}

const USAGE = `Usage: npm run --silent svc -- <command>
  backup --out FILE        (embedded database, server stopped; PostgreSQL: pg_dump)
  restore --from FILE      (into an empty SVC_DATA_DIR, server stopped)
  workspace create --name N [--plan trial|essentiel|pro|cabinet] [--seats N]
  workspace suspend W | workspace unsuspend W
  user create --workspace W [--email E] [--role admin|member] [--name N] [--password P]
  user set-password U --password P
  user invite --workspace W --email E [--role admin|member] [--name N]
  key create --workspace W [--user U] [--scopes a,b] [--readonly] [--rate-per-minute N]
             [--monthly-question-limit N] [--expires-at ISO8601]
  key revoke K
  workspace set-plan W --plan trial|essentiel|pro|cabinet [--seats N] [--started-at ISO8601]
  workspace add-pack W --questions 100|500|2000
  usage W [--month YYYY-MM]
  notifications W [--month YYYY-MM]
  workspace set-partner W [--sandbox] [--grace-days N]
  poste install W --key contract-review|invoice-check|due-diligence-summary|policy-compliance
`;

function describe(err: unknown): string {
  if (isDomainError(err)) return err.message;
  if (err instanceof ZodError) {
    const i = err.issues[0];
    return i ? `${i.path.join('.') ? i.path.join('.') + ': ' : ''}${i.message}` : 'invalid input';
  }
  return err instanceof Error ? err.message : String(err);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`error: ${describe(err)}\n`);
    process.exit(2);
  },
);
