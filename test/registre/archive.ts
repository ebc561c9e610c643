import { createPublicKey, verify } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { canonical, certificateHolds, sha256Hex } from '../verify/offline.js';

/** The files of a tar archive (ustar: 512-byte headers, sizes in octal), read with nothing but Buffer. */
export function untar(gz: Buffer): Map<string, Buffer> {
  const tar = gunzipSync(gz);
  const files = new Map<string, Buffer>();
  for (let at = 0; at + 512 <= tar.length; ) {
    const header = tar.subarray(at, at + 512);
    if (header.every((b) => b === 0)) break;
    const name = header.subarray(0, 100).toString('utf8').replace(/\0.*$/s, '');
    const size = parseInt(header.subarray(124, 136).toString('ascii').replace(/\0.*$/s, '').trim() || '0', 8);
    files.set(name, tar.subarray(at + 512, at + 512 + size));
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}

export type Verdict = { ok: true; count: number } | { ok: false; reason: string };

/** What VERIFY.md tells a reader to check, with node:crypto only. */
export function verifyArchive(files: Map<string, Buffer>): Verdict {
  const manifestBytes = files.get('manifest.json');
  const sig = files.get('manifest.sig');
  const pem = files.get('public-key.pem');
  if (!manifestBytes || !sig || !pem) return { ok: false, reason: 'missing file' };
  if (!verify(null, manifestBytes, createPublicKey(pem), sig)) return { ok: false, reason: 'manifest signature' };
  const manifest = JSON.parse(manifestBytes.toString('utf8'));
  for (const [name, expected] of Object.entries(manifest.files as Record<string, { sha256: string; bytes: number }>)) {
    const file = files.get(name);
    if (!file || sha256Hex(file) !== expected.sha256 || file.length !== expected.bytes) return { ok: false, reason: `file ${name}` };
  }
  const keys = new Map<string, string>(JSON.parse(files.get('public-keys.json')!.toString('utf8')).map((k: { keyId: string; pem: string }) => [k.keyId, k.pem]));
  const lines = files.get('certificates.jsonl')!.toString('utf8').split('\n').filter(Boolean);
  let prev: Record<string, unknown> | null = null;
  for (const line of lines) {
    const cert = JSON.parse(line) as Record<string, unknown>;
    if (line !== canonical(cert)) return { ok: false, reason: `line ${String(cert.seq)} not canonical` };
    const holds = certificateHolds(cert, keys.get(String(cert.keyId)) ?? '');
    if (!holds.hash) return { ok: false, reason: `hash of ${String(cert.seq)}` };
    if (!holds.signature) return { ok: false, reason: `signature of ${String(cert.seq)}` };
    if (cert.seq !== (prev ? Number(prev.seq) + 1 : manifest.firstSeq)) return { ok: false, reason: `sequence at ${String(cert.seq)}` };
    if ((cert.prevHash ?? null) !== (prev ? prev.hash : cert.seq === 1 ? null : cert.prevHash)) return { ok: false, reason: `chain at ${String(cert.seq)}` };
    prev = cert;
  }
  if (lines.length !== manifest.count) return { ok: false, reason: 'count' };
  if ((lines.length ? JSON.parse(lines[0]!).hash : null) !== manifest.firstHash) return { ok: false, reason: 'first hash' };
  if ((prev?.hash ?? null) !== manifest.lastHash) return { ok: false, reason: 'last hash' };
  return { ok: true, count: lines.length };
}
