import { z } from 'zod';

/**
 * Deepest nesting accepted in a free-form JSON field (a tool's `inputSchema`, arguments...). Real
 * JSON Schemas stay far below it; a deeper value is refused before anything walks it recursively
 * (JSON.stringify, zod's JSON Schema conversion and jsonb all recurse and would overflow the stack).
 */
export const MAX_JSON_DEPTH = 32;

/**
 * Whether `value` nests objects and arrays at most `limit` levels deep (a scalar is depth 0, `{}` and
 * `[]` depth 1). Iterative, and it stops at the first level past the limit, so any depth is safe to check.
 */
export function withinJsonDepth(value: unknown, limit = MAX_JSON_DEPTH): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth + 1 > limit) return false;
    for (const child of Object.values(current)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return true;
}

/**
 * Adds the depth cap to the zod schema of a free-form JSON field, as a refinement that aborts: a
 * deeper value is a 400 naming the field, and the schema's later checks (which may recurse, such as
 * JSON.stringify) never see it. Add it before any other refinement.
 */
export function maxJsonDepth<T extends z.ZodType>(schema: T, field: string, limit = MAX_JSON_DEPTH): T {
  return schema.refine((v) => withinJsonDepth(v, limit), {
    message: `${field} must not be nested more than ${limit} levels deep`,
    abort: true,
  });
}
