/**
 * The dependency rule (docs/architecture.md, "Layers and the dependency rule"): no import circle in
 * src/ and rest/ (type imports count: they are what ties the layers together), src/core depends on
 * nothing above it, and nothing in src/modules or rest/ imports the composition root (src/app).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import madge from 'madge';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The import graph (file → files it imports, paths relative to the repository), type imports included. */
async function importGraph(paths: string[]) {
  const result = await madge(
    paths.map((p) => join(root, p)),
    {
      baseDir: root,
      fileExtensions: ['ts'],
      tsConfig: join(root, 'tsconfig.json'),
      detectiveOptions: { ts: { skipTypeImports: false }, tsx: { skipTypeImports: false } },
    },
  );
  return { graph: result.obj(), circles: result.circular(), skipped: result.warnings().skipped };
}

const sources = (dir: string): string[] =>
  readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(dir, f));

/** Relative import specifiers of a file, resolved to repository paths (`.js` → `.ts`). */
function importsOf(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const specifiers = [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)'(\.{1,2}\/[^']+)'/g)].map((m) => m[1]!);
  return specifiers.map((s) => relative(root, resolve(root, dirname(file), s)).replace(/\.js$/, '.ts'));
}

describe('the dependency rule', () => {
  it('the check finds a circle when there is one (a type-only fixture)', async () => {
    const { circles } = await importGraph(['test/platform/fixtures/import-circle']);
    expect(circles).toEqual([['test/platform/fixtures/import-circle/first.ts', 'test/platform/fixtures/import-circle/second.ts']]);
  });

  it('no import circle in src/ and rest/, every import resolved', async () => {
    const { graph, circles, skipped } = await importGraph(['src', 'rest']);
    expect(Object.keys(graph).length).toBeGreaterThan(150);
    expect(graph['src/app/create-app.ts']).toContain('src/core/deps.ts');
    expect(skipped).toEqual([]);
    expect(circles).toEqual([]);
  });

  it('src/core depends on nothing above it (modules, adapters, the pipeline, the app)', async () => {
    const { graph } = await importGraph(['src/core']);
    const reached = new Set<string>();
    const visit = (file: string) => {
      for (const dep of graph[file] ?? []) if (!reached.has(dep)) reached.add(dep), visit(dep);
    };
    for (const file of Object.keys(graph).filter((f) => f.startsWith('src/core/'))) visit(file);
    expect(reached).toContain('src/db/types.ts');
    expect([...reached].filter((f) => /^(src\/(modules|app|graphql|pipeline|cli)|rest)\//.test(f))).toEqual([]);
  });

  it('nothing in src/modules or rest/ imports src/app: only the composition root wires modules', () => {
    const upward = [...sources('src/modules'), ...sources('rest')].flatMap((file) =>
      importsOf(file)
        .filter((target) => target.startsWith('src/app/'))
        .map((target) => `${file} → ${target}`),
    );
    expect(upward).toEqual([]);
  });

  it('the import scan sees what it checks (a module importing core, create-app importing a module)', () => {
    expect(importsOf('src/modules/usage/metering.service.ts')).toContain('src/core/context.ts');
    expect(importsOf('src/app/create-app.ts')).toContain('src/modules/usage/runtime.ts');
  });
});
