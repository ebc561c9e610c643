const SAMPLE_BYTES = 64 * 1024;

/**
 * Decodes a text file: UTF-8 (BOM optional) or UTF-16 with a BOM; bytes that are not valid UTF-8
 * are read as Windows-1252, the usual encoding of older Western European files.
 * Returns null when the bytes look binary: a NUL byte, or more than 1% control characters.
 */
export function decodeText(bytes: Buffer): string | null {
  let text: string;
  if (bytes[0] === 0xff && bytes[1] === 0xfe) text = new TextDecoder('utf-16le').decode(bytes.subarray(2));
  else if (bytes[0] === 0xfe && bytes[1] === 0xff) text = new TextDecoder('utf-16be').decode(bytes.subarray(2));
  else {
    if (bytes.subarray(0, SAMPLE_BYTES).includes(0)) return null;
    try {
      text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
    } catch {
      text = new TextDecoder('windows-1252').decode(bytes);
    }
  }
  const sample = text.slice(0, SAMPLE_BYTES);
  const controls = sample.match(/[\u0000-\u0008\u000e-\u001f\u007f]/g)?.length ?? 0;
  if (controls > sample.length / 100) return null;
  return text.replace(/\r\n?/g, '\n');
}
