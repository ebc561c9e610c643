import { createHash, sign } from 'node:crypto';
import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';
import type { Writable } from 'node:stream';
import { createGzip } from 'node:zlib';
import tar from 'tar-stream';
import type { ServiceContext } from '../../core/context.js';
import { GatewaySigningKey } from '../proofs/index.js';
import { canonicalJson, toCertificateDto } from '../proofs/index.js';
import { requireProofJournal, walkChain } from './registre.service.js';

/** Format identifier of the archive's manifest. */
export const ARCHIVE_FORMAT = 'svc.registre/v1';

const VERIFY_TEXT = `# Verifying this archive offline

Files: certificates.jsonl (one certificate per line, oldest first), manifest.json (canonical JSON),
manifest.sig (raw 64-byte Ed25519 signature of manifest.json), public-key.pem (the key that signed the
manifest), public-keys.json (every key that signed certificates: keyId and PEM), this file.

1. The manifest is authentic:
   openssl pkeyutl -verify -pubin -inkey public-key.pem -rawin -in manifest.json -sigfile manifest.sig
   (OpenSSL 3), or with Node: crypto.verify(null, fs.readFileSync('manifest.json'),
   crypto.createPublicKey(fs.readFileSync('public-key.pem')), fs.readFileSync('manifest.sig')) === true.
2. The files are those the manifest names: for each entry of manifest.files,
   openssl dgst -sha256 <file>  (or: sha256sum <file>) gives its sha256, and its size in bytes is bytes.
3. Each certificate is intact: remove "hash" and "signature" from the line's object; serialise the rest as
   RFC 8785 canonical JSON (for these certificates, which hold only strings, whole numbers, null and
   objects: keys sorted by UTF-16 code units at every level, no whitespace, JSON.stringify for strings and
   numbers). Its SHA-256 in hex is "hash"; crypto.verify(null, bytes, key, Buffer.from(signature,
   'base64url')) is true with the key of public-keys.json whose keyId is the certificate's keyId.
4. The chain is whole: line n has seq n (from the manifest's firstSeq), and its prevHash is the hash of
   line n-1 (null for seq 1); the count, first and last hash match the manifest.
`;

/**
 * Writes one tar entry of known size; `fill` writes its bytes, waiting whenever the archive is full (the
 * client reads slower than the chain is read). `stop` ends the wait when the archive is torn down.
 */
async function writeEntry(
  pack: tar.Pack,
  stop: AbortSignal,
  name: string,
  size: number,
  fill: (write: (chunk: Buffer) => Promise<void>) => Promise<void> | void,
): Promise<void> {
  let entry!: Writable;
  const done = new Promise<void>((resolve, reject) => {
    entry = pack.entry({ name, size, mode: 0o644, mtime: new Date(0) }, (err) => (err ? reject(err) : resolve())) as unknown as Writable;
  });
  await fill(async (chunk) => {
    stop.throwIfAborted();
    if (!entry.write(chunk)) await once(entry, 'drain', { signal: stop });
  });
  entry.end();
  await done;
}

const fileOf = (text: string) => {
  const bytes = Buffer.from(text, 'utf8');
  return { bytes, sha256: createHash('sha256').update(bytes).digest('hex') };
};

/**
 * `GET /v1/registre/export`: a tar.gz streamed in constant memory. The chain is read twice in pages,
 * up to the last certificate present when the export starts: once to size and hash certificates.jsonl
 * (a tar entry states its size first), once to write it. Then the public keys, the how-to, the manifest
 * (count, first and last hash, SHA-256 and size of each file) and its Ed25519 signature by the gateway key.
 */
export async function openRegisterExport(ctx: ServiceContext): Promise<{ filename: string; writeTo: (out: Writable) => Promise<void> }> {
  requireProofJournal(ctx);
  const ws = ctx.caller.workspace.id;
  const [top] = await ctx.em.execute<{ last: number | string | null }[]>('select max(seq) as last from proof_certificate where workspace_id = ?', [ws]);
  const upTo = Number(top?.last ?? 0);
  const at = ctx.clock.now();
  const lineOf = (c: Parameters<typeof toCertificateDto>[0]) => Buffer.from(`${canonicalJson(toCertificateDto(c))}\n`, 'utf8');

  return {
    filename: `registre-${ws}-${at.toISOString().slice(0, 10)}.tar.gz`,
    writeTo: async (out) => {
      const hash = createHash('sha256');
      let bytes = 0;
      let firstSeq: number | null = null;
      const walk = await walkChain(ctx, {
        upTo,
        each: (c) => {
          const line = lineOf(c);
          hash.update(line);
          bytes += line.length;
          firstSeq ??= c.seq;
        },
      });
      const keys = await ctx.em.find(GatewaySigningKey, {}, { orderBy: { createdAt: 'asc', id: 'asc' }, fields: ['id', 'publicKeyPem'] });
      const current = ctx.app.signing.key;
      const publicKeyPem = fileOf(current.publicKey.export({ format: 'pem', type: 'spki' }).toString());
      const publicKeys = fileOf(`${JSON.stringify(keys.map((k) => ({ keyId: k.id, pem: k.publicKeyPem })), null, 2)}\n`);
      const howTo = fileOf(VERIFY_TEXT);
      const manifest = {
        format: ARCHIVE_FORMAT,
        workspaceId: ws,
        createdAt: at.toISOString(),
        count: walk.length,
        firstSeq,
        lastSeq: walk.length ? upTo : null,
        firstHash: walk.firstHash,
        lastHash: walk.lastHash,
        chainValid: walk.firstBroken === null,
        keyId: current.keyId,
        algorithm: 'Ed25519',
        canonicalization: 'RFC 8785 (JCS)',
        files: {
          'certificates.jsonl': { sha256: hash.digest('hex'), bytes },
          'public-key.pem': { sha256: publicKeyPem.sha256, bytes: publicKeyPem.bytes.length },
          'public-keys.json': { sha256: publicKeys.sha256, bytes: publicKeys.bytes.length },
          'VERIFY.md': { sha256: howTo.sha256, bytes: howTo.bytes.length },
        },
      };
      const manifestBytes = Buffer.from(canonicalJson(manifest), 'utf8');
      const signature = sign(null, manifestBytes, current.privateKey);

      const pack = tar.pack();
      const stop = new AbortController();
      const written = pipeline(pack, createGzip(), out).catch((err: unknown) => {
        stop.abort(err);
        throw err;
      });
      written.catch(() => undefined);
      const small = (name: string, file: Buffer) => writeEntry(pack, stop.signal, name, file.length, (write) => write(file));
      // The second pass writes each line as it is read: one page of certificates in memory at a time.
      await writeEntry(pack, stop.signal, 'certificates.jsonl', bytes, async (write) => {
        await walkChain(ctx, { upTo, check: false, each: (c) => write(lineOf(c)) });
      });
      await small('public-key.pem', publicKeyPem.bytes);
      await small('public-keys.json', publicKeys.bytes);
      await small('VERIFY.md', howTo.bytes);
      await small('manifest.json', manifestBytes);
      await small('manifest.sig', signature);
      pack.finalize();
      await written;
    },
  };
}
