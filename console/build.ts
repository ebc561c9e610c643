/**
 * Builds the console (Vite) into console/dist when its sources changed since the last build, so the
 * README's `npm install && npm start` serves a built console: `npm start` runs this first (`prestart`).
 * Staleness is a SHA-256 over the inputs (console sources, index.html, the Vite config, the lockfile),
 * kept in dist/.source-hash: a fresh checkout or a changed file rebuilds, an unchanged tree starts at once.
 */
import { createHash } from 'node:crypto';
import { closeSync, existsSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

export const CONSOLE_ROOT = fileURLToPath(new URL('.', import.meta.url));
export const CONSOLE_DIST = join(CONSOLE_ROOT, 'dist');
const HASH_FILE = join(CONSOLE_DIST, '.source-hash');
/** Held while building: test files in parallel workers (and a start beside them) never build at once. */
const LOCK_FILE = join(CONSOLE_ROOT, '.build.lock');
const STALE_LOCK_MS = 120_000;
const INPUTS = ['src', 'index.html', 'vite.config.ts', '../package-lock.json'];

function filesUnder(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true })
    .filter((e) => !e.name.startsWith('.') && e.name !== 'graphql-env.d.ts')
    .flatMap((e) => filesUnder(join(path, e.name)));
}

/** The hash of every input file's path and content, in a stable order. */
export function sourceHash(): string {
  const hash = createHash('sha256');
  const files = INPUTS.flatMap((p) => filesUnder(join(CONSOLE_ROOT, p))).sort();
  for (const file of files) {
    hash.update(relative(CONSOLE_ROOT, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

export function consoleBuildIsStale(): boolean {
  if (!existsSync(join(CONSOLE_DIST, 'index.html')) || !existsSync(HASH_FILE)) return true;
  return readFileSync(HASH_FILE, 'utf8').trim() !== sourceHash();
}

async function withBuildLock<T>(fn: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      closeSync(openSync(LOCK_FILE, 'wx'));
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      // A lock left by a killed build is taken over once it is clearly too old to be a live one.
      const held = statSync(LOCK_FILE, { throwIfNoEntry: false });
      if (held && Date.now() - held.mtimeMs > STALE_LOCK_MS) rmSync(LOCK_FILE, { force: true });
      else await delay(200);
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(LOCK_FILE, { force: true });
  }
}

/** Builds when stale (one build at a time across processes); answers whether a build ran. */
export async function ensureConsoleBuilt(opts: { quiet?: boolean } = {}): Promise<boolean> {
  if (!consoleBuildIsStale()) return false;
  return withBuildLock(async () => {
    if (!consoleBuildIsStale()) return false; // built by whoever held the lock before
    const hash = sourceHash();
    const { build } = await import('vite');
    // Always a production build: under vitest NODE_ENV is `test`, which would make Vite bundle React's
    // development build, and that build would then be served by `npm start` (same source hash).
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      await build({ configFile: join(CONSOLE_ROOT, 'vite.config.ts'), mode: 'production', logLevel: opts.quiet ? 'error' : 'warn' });
    } finally {
      if (nodeEnv === undefined) delete process.env.NODE_ENV;
      else process.env.NODE_ENV = nodeEnv;
    }
    writeFileSync(HASH_FILE, hash + '\n');
    return true;
  });
}

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}

/**
 * What a browser fetches before the console can show its first screen: the page, the entry chunk, the
 * chunks it imports statically and their CSS (screens loaded with `import()` come later), each with its
 * gzipped size (level 9, as a server or CDN would send it).
 */
export function firstLoad(): { files: { file: string; bytes: number; gzipped: number }[]; gzipped: number } {
  const manifest = JSON.parse(readFileSync(join(CONSOLE_DIST, '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  const wanted = new Set<string>(['index.html']);
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || wanted.has(chunk.file)) return;
    wanted.add(chunk.file);
    for (const css of chunk.css ?? []) wanted.add(css);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) visit(key);
  const files = [...wanted].map((file) => {
    const content = readFileSync(join(CONSOLE_DIST, file));
    return { file, bytes: content.length, gzipped: gzipSync(content, { level: 9 }).length };
  });
  return { files, gzipped: files.reduce((n, f) => n + f.gzipped, 0) };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const started = Date.now();
  ensureConsoleBuilt()
    .then((built) => {
      console.log(built ? `console built into console/dist in ${Date.now() - started} ms` : 'console/dist is up to date');
    })
    .catch((err: unknown) => {
      // Without Vite (an install without dev dependencies) an existing build is still served.
      if (existsSync(join(CONSOLE_DIST, 'index.html'))) {
        console.warn(`console not rebuilt (${(err as Error).message}); serving the existing console/dist`);
        return;
      }
      // The API still starts; /console answers 503 and says how to build it.
      console.error(`console build failed: ${(err as Error).message}`);
    });
}
