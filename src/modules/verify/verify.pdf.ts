import PDFDocument from 'pdfkit';
import type { Writable } from 'node:stream';
import type { Certificate } from '../proofs/index.js';
import type { ReportDto } from './verify.schemas.js';

const COLOURS = { supported: '#1b7f3b', contradicted: '#b3261e', unverifiable: '#8a6d00' } as const;
const LABELS = { supported: 'SUPPORTED', contradicted: 'CONTRADICTED', unverifiable: 'UNVERIFIABLE' } as const;

/**
 * The report as a person reads it (pdfkit, standard Helvetica): the text with each claim highlighted in
 * its verdict's colour, then each claim with its verdict, the rule that decided and the evidence quoted
 * with its source and offsets, then the certificate (id, position, hash, previous hash, signature, key).
 * Written to `out` as it is produced.
 */
export function writeReportPdf(report: ReportDto, certificate: Certificate, out: Writable): Promise<void> {
  const doc = new PDFDocument({ size: 'A4', margin: 50, info: { Title: `Verifier report ${report.id}`, CreationDate: new Date(report.createdAt) } });
  const done = new Promise<void>((resolve, reject) => {
    out.on('finish', resolve);
    out.on('close', resolve);
    out.on('error', reject);
    doc.on('error', reject);
  });
  doc.pipe(out);
  doc.font('Helvetica-Bold').fontSize(16).text('Verifier report');
  doc.font('Helvetica').fontSize(9).fillColor('#444')
    .text(`Report ${report.id} - ${report.createdAt} - language ${report.language} - checked against ${report.against}`)
    .text(`Claims: ${report.counts.supported} supported, ${report.counts.contradicted} contradicted, ${report.counts.unverifiable} unverifiable`);
  doc.moveDown();

  doc.font('Helvetica-Bold').fontSize(12).fillColor('black').text('Text');
  doc.font('Helvetica').fontSize(10);
  let at = 0;
  const pieces: { text: string; colour: string }[] = [];
  for (const c of report.claims) {
    if (c.start > at) pieces.push({ text: report.text.slice(at, c.start), colour: 'black' });
    pieces.push({ text: `${report.text.slice(c.start, c.end)} [${LABELS[c.verdict]}]`, colour: COLOURS[c.verdict] });
    at = c.end;
  }
  if (at < report.text.length) pieces.push({ text: report.text.slice(at), colour: 'black' });
  pieces.forEach((p, i) => doc.fillColor(p.colour).text(p.text, { continued: i < pieces.length - 1 }));
  doc.moveDown();

  doc.font('Helvetica-Bold').fontSize(12).fillColor('black').text('Claims and evidence');
  report.claims.forEach((c, i) => {
    doc.moveDown(0.5);
    doc.font('Helvetica-Bold').fontSize(10).fillColor(COLOURS[c.verdict]).text(`${i + 1}. ${LABELS[c.verdict]} (${c.rule})`);
    doc.font('Helvetica').fillColor('black').text(c.text);
    for (const e of c.evidence) {
      doc.fontSize(9).fillColor('#333').text(`Evidence from "${e.source}", characters ${e.start}-${e.end}, score ${e.score}:`, { indent: 12 });
      doc.font('Helvetica-Oblique').text(`"${e.quote}"`, { indent: 24 });
      doc.font('Helvetica').fontSize(10);
    }
    if (c.evidence.length === 0) doc.fontSize(9).fillColor('#333').text('No passage near this claim.', { indent: 12 }).fontSize(10);
  });
  doc.moveDown();

  doc.font('Helvetica-Bold').fontSize(12).fillColor('black').text('Certificate');
  doc.font('Courier').fontSize(8);
  for (const [k, v] of [
    ['id', certificate.id],
    ['position in chain', String(certificate.seq)],
    ['created', certificate.createdAt],
    ['hash (SHA-256)', certificate.hash],
    ['previous hash', certificate.prevHash ?? '(first of the chain)'],
    ['answer hash', certificate.answerHash],
    ['signature (Ed25519)', certificate.signature],
    ['signing key', certificate.keyId],
  ] as const) {
    doc.text(`${k}: ${v}`);
  }
  doc.font('Helvetica').fontSize(8).fillColor('#444').moveDown(0.5)
    .text('Verify offline: the hash is the SHA-256 of the RFC 8785 canonical JSON of the certificate without hash and signature; the signature signs the same bytes with the key of GET /v1/gateway/public-key.');
  doc.end();
  return done;
}
