/**
 * A lone surrogate: a UTF-16 code unit of a pair without its other half. Valid in JSON text (`"\ud800"`),
 * but not a Unicode character: encoded to UTF-8 for PostgreSQL it becomes U+FFFD, so what is stored is
 * not what was sent. With the `u` flag a well-formed pair is one code point and never matches.
 */
const LONE_SURROGATE = /\p{Cs}/u;

/** Where a value sits: its key and its parent's place (the root has none). */
interface Place {
  key: string;
  parent: Place | undefined;
}

const pathOf = (place: Place | undefined): string[] => {
  const path: string[] = [];
  for (let p = place; p; p = p.parent) path.push(p.key);
  return path.reverse();
};

/**
 * The path of the first string of a parsed JSON value (an object key or a string value) that is not
 * well-formed Unicode, or undefined. A key's path ends with the key itself (its bad half shown as
 * U+FFFD). Iterative, and linear in the size of the value: any depth is safe.
 */
export function firstIllFormedText(value: unknown): string[] | undefined {
  const stack: [unknown, Place | undefined][] = [[value, undefined]];
  while (stack.length > 0) {
    const [current, place] = stack.pop()!;
    if (typeof current === 'string') {
      if (LONE_SURROGATE.test(current)) return pathOf(place);
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    const keys = Object.keys(current);
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i]!;
      if (LONE_SURROGATE.test(key)) return pathOf({ key: key.replace(new RegExp(LONE_SURROGATE, 'gu'), '\uFFFD'), parent: place });
      stack.push([(current as Record<string, unknown>)[key], { key, parent: place }]);
    }
  }
  return undefined;
}
