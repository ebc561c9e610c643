import type { z } from 'zod';

interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  innerType?: z.ZodType;
  options?: z.ZodType[];
  in?: z.ZodType;
  out?: z.ZodType;
  entries?: Record<string, string>;
  values?: unknown[];
  getter?: () => z.ZodType;
}

/**
 * Every closed set of string values a zod schema accepts (a `z.enum`, or the string literals of a
 * field), by path (`messages[].role`, `tool_choice`): the request fields whose unknown values the
 * schema refuses. Paths reached through several union members are merged.
 */
export function closedEnumPaths(schema: z.ZodType): Record<string, string[]> {
  const found = new Map<string, Set<string>>();
  const add = (path: string, values: unknown[]) => {
    const strings = values.filter((v): v is string => typeof v === 'string');
    if (strings.length === 0) return;
    const set = found.get(path) ?? new Set<string>();
    strings.forEach((v) => set.add(v));
    found.set(path, set);
  };
  const walk = (s: z.ZodType | undefined, path: string): void => {
    if (!s) return;
    const def = (s as unknown as { _zod: { def: Def } })._zod.def;
    switch (def.type) {
      case 'object':
        for (const [name, field] of Object.entries(def.shape ?? {})) walk(field, path ? `${path}.${name}` : name);
        return;
      case 'array':
        return walk(def.element, `${path}[]`);
      case 'optional':
      case 'nullable':
      case 'default':
      case 'prefault':
      case 'nonoptional':
      case 'readonly':
      case 'catch':
        return walk(def.innerType, path);
      case 'pipe':
        walk(def.in, path);
        return walk(def.out, path);
      case 'union':
        return def.options?.forEach((o) => walk(o, path));
      case 'lazy':
        return walk(def.getter?.(), path);
      case 'enum':
        return add(path, Object.values(def.entries ?? {}));
      case 'literal':
        return add(path, def.values ?? []);
      default:
        return;
    }
  };
  walk(schema, '');
  return Object.fromEntries([...found.entries()].map(([path, values]) => [path, [...values].sort()]));
}
