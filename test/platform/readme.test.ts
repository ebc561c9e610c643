import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// README is what an operator and a newcomer follow (docs/operations.md, "Release QA"): its configuration
// table and its dependency table are checked against what the code reads and what package.json installs.
const root = join(import.meta.dirname, '../..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const section = (title: string) => {
  const start = readme.indexOf(`\n## ${title}\n`);
  expect(start, `README has a "## ${title}" section`).toBeGreaterThan(0);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
};
const tableFirstCells = (text: string) => text.split('\n').filter((l) => l.startsWith('| ')).map((l) => l.split('|')[1]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/** The environment variables the service's own code names (server, REST layer, console build). */
function variablesRead(files: string[]): Set<string> {
  const names = new Set<string>();
  for (const f of files) for (const m of readFileSync(f, 'utf8').matchAll(/\b(?:SVC|OTEL)_[A-Z0-9_]*[A-Z0-9]\b/g)) names.add(m[0]);
  return names;
}

/** The package names a dependency table's first column gives, shorthand expanded: `@scope/a`, `/b` and `x-a`, `-b`. */
function packagesNamed(cells: string[]): Set<string> {
  const named = new Set<string>();
  for (const cell of cells) {
    let previous = '';
    for (const m of cell.matchAll(/`([^`\s]+)`/g)) {
      let name = m[1];
      if (name.startsWith('/') && previous.includes('/')) name = previous.slice(0, previous.indexOf('/')) + name;
      else if (name.startsWith('-') && previous.includes('-')) name = previous.slice(0, previous.lastIndexOf('-')) + name;
      named.add(name);
      previous = name;
    }
  }
  return named;
}

describe('README against the code', () => {
  it('names every environment variable the code reads in its configuration table, and names none the code ignores', () => {
    const read = variablesRead([...sourceFiles(join(root, 'src')), ...sourceFiles(join(root, 'rest')), join(root, 'console/build.ts')]);
    const table = variablesRead([]);
    for (const cell of tableFirstCells(section('Configuration'))) for (const m of cell.matchAll(/\b(?:SVC|OTEL)_[A-Z0-9_]*[A-Z0-9]\b/g)) table.add(m[0]);
    expect([...read].filter((v) => !table.has(v)).sort(), 'read by the code, missing from README').toEqual([]);
    expect([...table].filter((v) => !read.has(v)).sort(), 'in README, read by nothing').toEqual([]);
  });

  it('gives a reason for every package of package.json in its dependency table, and lists none that is not installed', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
    const installed = new Set([...Object.keys(pkg.dependencies), ...Object.keys(pkg.devDependencies)]);
    const named = packagesNamed(tableFirstCells(section('Dependencies')));
    const covered = (p: string) => named.has(p) || (p.startsWith('@types/') && named.has('@types/*'));
    expect([...installed].filter((p) => !covered(p)).sort(), 'installed, no reason in README').toEqual([]);
    expect([...named].filter((p) => p !== '@types/*' && !installed.has(p)).sort(), 'in README, not installed').toEqual([]);
  });

  it('expands the shorthand of the dependency table', () => {
    expect([...packagesNamed(['`@mikro-orm/core`, `/pglite` (pinned)', ' dev: `@opentelemetry/instrumentation-http`, `-pg` '])]).toEqual([
      '@mikro-orm/core',
      '@mikro-orm/pglite',
      '@opentelemetry/instrumentation-http',
      '@opentelemetry/instrumentation-pg',
    ]);
  });
});
