import type { z } from 'zod';

/** A field a typed body does not have: where it sits (`options`), and its name (`temprature`). */
export interface UnknownField {
  path: string[];
  key: string;
}

type Def = {
  type: string;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  innerType?: z.ZodType;
  element?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  options?: z.ZodType[];
  left?: z.ZodType;
  right?: z.ZodType;
  getter?: () => z.ZodType;
};

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The first field of `value` that `schema` does not declare, at any depth, or undefined. zod objects
 * strip unknown keys in silence by default; a typed request body refuses them instead (docs/security.md,
 * "Unknown fields"), without every schema of every module being written `.strict()`. Objects that take
 * any key (records, a `catchall`, `looseObject`) and values of no declared type are left alone; a union
 * is read through its first member that accepts the value.
 */
export function firstUnknownField(schema: z.ZodType, value: unknown, path: string[] = [], depth = 0): UnknownField | undefined {
  if (depth > 64) return undefined;
  const def = defOf(schema);
  switch (def.type) {
    case 'object': {
      if (!isPlainObject(value)) return undefined;
      const shape = def.shape ?? {};
      for (const [key, child] of Object.entries(value)) {
        const field = Object.hasOwn(shape, key) ? shape[key] : undefined; // not `valueOf` or `__proto__` of the prototype
        if (!field) {
          if (def.catchall) continue; // strict (zod refuses it itself) or loose: not this check's to refuse
          return { path, key };
        }
        const inner = firstUnknownField(field, child, [...path, key], depth + 1);
        if (inner) return inner;
      }
      return undefined;
    }
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return def.innerType ? firstUnknownField(def.innerType, value, path, depth + 1) : undefined;
    case 'array':
      if (!Array.isArray(value) || !def.element) return undefined;
      for (const [i, item] of value.entries()) {
        const inner = firstUnknownField(def.element, item, [...path, String(i)], depth + 1);
        if (inner) return inner;
      }
      return undefined;
    case 'pipe': {
      // `z.preprocess(fn, schema)` reads its input with the schema after it; `.transform()` with the one before.
      const side = def.in && defOf(def.in).type === 'transform' ? def.out : def.in;
      return side ? firstUnknownField(side, value, path, depth + 1) : undefined;
    }
    case 'lazy':
      return def.getter ? firstUnknownField(def.getter(), value, path, depth + 1) : undefined;
    case 'union': {
      const member = (def.options ?? []).find((option) => option.safeParse(value).success);
      return member ? firstUnknownField(member, value, path, depth + 1) : undefined;
    }
    case 'intersection': {
      // Each side knows only its own keys: a key is unknown when neither side declares it.
      const left = def.left ? firstUnknownField(def.left, value, path, depth + 1) : undefined;
      const right = def.right ? firstUnknownField(def.right, value, path, depth + 1) : undefined;
      return left && right ? left : undefined;
    }
    default:
      return undefined;
  }
}
