/**
 * URL templates: `https://api.example.com/orders/{orderId}?expand={expand}`. A placeholder is `{name}`
 * where name is a property of the tool's input schema; it may appear in the path or the query, never
 * in the scheme, host or port, so a call cannot be steered to another server by its arguments.
 * Values are percent-encoded (encodeURIComponent).
 */
const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

export function placeholdersOf(template: string): string[] {
  return [...new Set([...template.matchAll(PLACEHOLDER)].map((m) => m[1]))];
}

/** Why a template is not acceptable, or null. Checks the shape only; the address is checked by the SSRF guard. */
export function templateProblem(template: string): string | null {
  const origin = /^([a-z][a-z0-9+.-]*:\/\/[^/?#]*)/i.exec(template)?.[1];
  if (!origin) return 'urlTemplate must be an absolute http or https URL';
  if (/[{}]/.test(origin)) return 'urlTemplate placeholders may only appear in the path or the query, not in the host';
  const sample = template.replace(PLACEHOLDER, 'x');
  if (/[{}]/.test(sample)) return 'urlTemplate has a malformed placeholder (use {name} with letters, digits and _)';
  let url: URL;
  try {
    url = new URL(sample);
  } catch {
    return 'urlTemplate is not a valid URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'urlTemplate must use http or https';
  if (url.username || url.password) return 'urlTemplate must not contain credentials';
  return null;
}

/** Fills the placeholders from the arguments; returns the URL and the names it used, or the first missing name. */
export function fillTemplate(template: string, args: Record<string, unknown>): { url: string; used: Set<string> } | { missing: string } {
  const used = new Set<string>();
  for (const name of placeholdersOf(template)) {
    const v = args[name];
    if (v === undefined || v === null || v === '') return { missing: name };
    used.add(name);
  }
  const url = template.replace(PLACEHOLDER, (_m, name: string) => encodeURIComponent(scalar(args[name])));
  return { url, used };
}

/** Strings as they are, other values as JSON. */
export function scalar(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}
