import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import ts from 'typescript';

/**
 * The string values an installed client's TypeScript types allow, read from its type definitions
 * with the TypeScript compiler: for each named type expression (e.g.
 * `NonNullable<ChatCompletionCreateParamsBase['reasoning_effort']>`), the string literals of its union.
 * An open member such as `(string & {})` contributes nothing: only the values the types name.
 */
export function stringLiteralsOf(imports: string, expressions: Record<string, string>): Record<string, string[]> {
  const root = resolve(import.meta.dirname, '../..');
  const probe = join(root, 'test', '__client_types_probe__.ts');
  const names = Object.keys(expressions);
  const source = [imports, ...names.map((name, i) => `export type T${i} = ${expressions[name]};`)].join('\n');
  const options: ts.CompilerOptions = {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2023,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (file, language, ...rest) =>
    resolve(file) === probe ? ts.createSourceFile(file, source, language) : getSourceFile(file, language, ...rest);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (file) => resolve(file) === probe || fileExists(file);
  const readFile = host.readFile.bind(host);
  host.readFile = (file) => (resolve(file) === probe ? source : readFile(file));
  const program = ts.createProgram([probe], options, host);
  const file = program.getSourceFile(probe);
  if (!file) throw new Error('probe not compiled');
  const problems = ts.getPreEmitDiagnostics(program, file);
  if (problems.length > 0) {
    throw new Error(problems.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')).join('\n'));
  }
  const checker = program.getTypeChecker();
  const out: Record<string, string[]> = {};
  const aliases = file.statements.filter(ts.isTypeAliasDeclaration).filter((d) => /^T\d+$/.test(d.name.text));
  aliases.forEach((alias, i) => {
    const type = checker.getTypeAtLocation(alias.name);
    const members = type.isUnion() ? type.types : [type];
    const values = members.flatMap((t) => (t.isStringLiteral() ? [t.value] : []));
    if (values.length === 0) throw new Error(`${names[i]}: ${expressions[names[i]]} names no string value`);
    out[names[i]] = values.sort();
  });
  return out;
}

/** The version of an installed package, as its package.json says. */
export function installedVersion(pkg: string): string {
  const require = createRequire(import.meta.url);
  const main = require.resolve(pkg);
  const dir = main.slice(0, main.lastIndexOf(`/node_modules/${pkg}/`) + `/node_modules/${pkg}/`.length);
  return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}
