import { createHash } from 'node:crypto';

/**
 * The headers of every HTML page the service serves (the console, the set-password page): no framing
 * (clickjacking), scripts only from the service itself, plus the inline scripts named by their SHA-256
 * (a page that carries its own few lines of script); inline style attributes are allowed (React and
 * uPlot set element styles; the set-password page has its own `<style>`).
 */
export function pageHeaders(opts: { inlineScripts?: string[]; referrerPolicy?: 'same-origin' | 'no-referrer' } = {}): Record<string, string> {
  const hashes = (opts.inlineScripts ?? []).map((s) => ` 'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`).join('');
  return {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-cache',
    'x-content-type-options': 'nosniff',
    'referrer-policy': opts.referrerPolicy ?? 'same-origin',
    'content-security-policy': `default-src 'self'; script-src 'self'${hashes}; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'`,
  };
}
