/**
 * The dependency rule (docs/architecture.md, "Layers and the dependency rule" and "Module surfaces"): no
 * import circle in src/ and rest/ (type imports count: they are what ties the layers together), src/core
 * depends on nothing above it, nothing in src/modules or rest/ imports the composition root (src/app),
 * every import of a module from outside it goes through its `index.ts`, and modules do not depend on
 * each other in a cycle. Fixtures prove that each check can fail.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import madge from 'madge';
import { beforeAll, describe, expect, it } from 'vitest';

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

type Graph = Record<string, string[]>;

/**
 * The two declared entry points beside a module's `index.ts`: its GraphQL adapters (`*.graphql.ts`, its
 * own resolvers kept beside the domain) are loaded by src/graphql/schema.ts and may name another
 * module's GraphQL types; src/db/entities.ts lists the modules' entities for MikroORM.
 */
const declaredEntry = (from: string, to: string): boolean =>
  (to.endsWith('.graphql.ts') && (from === 'src/graphql/schema.ts' || from.endsWith('.graphql.ts'))) ||
  (to.endsWith('.entity.ts') && from === 'src/db/entities.ts');

/**
 * The module rules over an import graph, modules being the folders under `modulesDir`: imports from
 * outside a module that reach past its `index.ts` (`deep`), and the module-level cycles, each a strongly
 * connected group of modules, sorted (`cycles`).
 */
function moduleRules(graph: Graph, modulesDir: string) {
  const prefix = `${modulesDir}/`;
  const moduleOf = (file: string) => (file.startsWith(prefix) ? file.slice(prefix.length).split('/')[0]! : null);
  const deep: string[] = [];
  const edges = new Map<string, Set<string>>();
  for (const [from, targets] of Object.entries(graph)) {
    const fromModule = moduleOf(from);
    for (const to of targets) {
      const toModule = moduleOf(to);
      if (!toModule || toModule === fromModule) continue;
      if (fromModule) edges.set(fromModule, (edges.get(fromModule) ?? new Set()).add(toModule));
      if (to !== `${prefix}${toModule}/index.ts` && !declaredEntry(from, to)) deep.push(`${from} → ${to}`);
    }
  }
  // Tarjan's strongly connected components over the module graph.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (m: string) => {
    index.set(m, index.size), low.set(m, index.get(m)!), stack.push(m);
    for (const n of edges.get(m) ?? []) {
      if (!index.has(n)) visit(n), low.set(m, Math.min(low.get(m)!, low.get(n)!));
      else if (stack.includes(n)) low.set(m, Math.min(low.get(m)!, index.get(n)!));
    }
    if (low.get(m) === index.get(m)) {
      const group = stack.splice(stack.indexOf(m));
      if (group.length > 1) cycles.push(group.sort());
    }
  };
  for (const m of [...edges.keys()].sort()) if (!index.has(m)) visit(m);
  return { deep: deep.sort(), cycles, modules: [...edges.keys()].sort() };
}

describe('the dependency rule', () => {
  let source: Awaited<ReturnType<typeof importGraph>>;
  beforeAll(async () => {
    source = await importGraph(['src', 'rest']);
  }, 180_000);

  it('the check finds a circle when there is one (a type-only fixture)', async () => {
    const { circles } = await importGraph(['test/platform/fixtures/import-circle']);
    expect(circles).toEqual([['test/platform/fixtures/import-circle/first.ts', 'test/platform/fixtures/import-circle/second.ts']]);
  });

  it('no import circle in src/ and rest/, every import resolved', () => {
    const { graph, circles, skipped } = source;
    expect(Object.keys(graph).length).toBeGreaterThan(150);
    expect(graph['src/app/create-app.ts']).toContain('src/core/deps.ts');
    expect(skipped).toEqual([]);
    expect(circles).toEqual([]);
  }, 180_000); // a parse of every file of src/ and rest/: about 10 s on a quiet machine, 40 s and more at a high load

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
    expect(importsOf('src/app/create-app.ts')).toContain('src/modules/usage/index.ts');
  });

  it('the module check finds a deep import (fixture: beta imports alpha/secret.ts)', async () => {
    const dir = 'test/platform/fixtures/deep-import/modules';
    const { graph } = await importGraph([dir]);
    expect(moduleRules(graph, dir)).toMatchObject({ deep: [`${dir}/beta/welcome.ts → ${dir}/alpha/secret.ts`], cycles: [] });
  });

  it('the module check finds a module cycle without a file circle (fixture: alpha ↔ beta)', async () => {
    const dir = 'test/platform/fixtures/module-cycle/modules';
    const { graph, circles } = await importGraph([dir]);
    expect(circles).toEqual([]);
    expect(moduleRules(graph, dir)).toMatchObject({ deep: [], cycles: [['alpha', 'beta']] });
  });

  it('every module has an index.ts, its public surface', () => {
    const modules = readdirSync(join(root, 'src/modules'), { withFileTypes: true }).filter((d) => d.isDirectory());
    expect(modules.length).toBeGreaterThan(20);
    expect(modules.filter((d) => !source.graph[`src/modules/${d.name}/index.ts`]).map((d) => d.name)).toEqual([]);
  });

  it('outside a module (other modules, rest/, src/graphql, src/pipeline, src/app…) only its index.ts is imported', () => {
    const { deep, modules } = moduleRules(source.graph, 'src/modules');
    expect(modules).toContain('chat');
    expect(deep).toEqual([]);
  });

  it('no module-level cycle between the modules', () => {
    expect(moduleRules(source.graph, 'src/modules').cycles).toEqual([]);
  });
});
