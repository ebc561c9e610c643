/**
 * A lone surrogate: a UTF-16 code unit of a pair without its other half. Valid in JSON text (`"\ud800"`),
 * but not a Unicode character: encoded to UTF-8 for PostgreSQL it becomes U+FFFD, so what is stored is
 * not what was sent. With the `u` flag a well-formed pair is one code point and never matches.
 */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * The path of the first string of a parsed JSON value (an object key or a string value) that is not
 * well-formed Unicode, or undefined. A key's path ends with the key itself. Iterative: any depth is safe.
 */
export function firstIllFormedText(value: unknown): string[] | undefined {
  const stack: [unknown, string[]][] = [[value, []]];
  while (stack.length > 0) {
    const [current, path] = stack.pop()!;
    if (typeof current === 'string') {
      if (LONE_SURROGATE.test(current)) return path;
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    const entries = Array.isArray(current) ? current.map((v, i) => [String(i), v] as const) : Object.entries(current);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i]!;
      if (LONE_SURROGATE.test(key)) return [...path, key.replace(new RegExp(LONE_SURROGATE, 'gu'), '\uFFFD')];
      stack.push([child, [...path, key]]);
    }
  }
  return undefined;
}
