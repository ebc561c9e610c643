import { Document, HeadingLevel, Packer, Paragraph } from 'docx';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { runPendingIngestion } from '../../src/modules/knowledge/ingestion.worker.js';
import { assertDocumented } from './openapi-validation.js';
import { api, type ApiResponse } from './api.js';
import { type TestApp, type TestTenant } from './app.js';

/** Small documents of each supported format, generated here; each states facts that tests look for. */
export const fixtures = {
  text: (body = 'Refund policy\n\nRefunds are granted within 30 days of purchase.\nThe support email is help@example.com.') =>
    Buffer.from(body, 'utf8'),

  markdown: () =>
    Buffer.from(
      [
        '# Travel handbook',
        '',
        '## Trains',
        '',
        'Book trains for trips under four hours. The train allowance is 90 EUR per trip.',
        '',
        '## Hotels',
        '',
        'Hotel nights are capped. The hotel cap is 150 EUR per night, valid until 2026-06-30.',
      ].join('\n'),
      'utf8',
    ),

  html: () =>
    Buffer.from(
      `<!doctype html><html><head><title>Onboarding guide</title></head><body>
        <h1>Onboarding</h1><p>New hires receive a laptop on their first day.</p>
        <h2>Accounts</h2><p>The VPN token expires after 90 days and must be renewed.</p>
        <script>var ignored = "scripts are not text";</script>
      </body></html>`,
      'utf8',
    ),

  pdf: async (): Promise<Buffer> => {
    const pdf = await PDFDocument.create();
    pdf.setTitle('Partner Price List');
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    const first = pdf.addPage([595, 842]);
    first.drawText('1. Pricing Overview', { x: 50, y: 780, size: 18, font });
    first.drawText('The service fee is 120 EUR per month, valid until 2026-12-31.', { x: 50, y: 750, size: 11, font });
    first.drawText('Every workspace on the standard plan pays it monthly.', { x: 50, y: 735, size: 11, font });
    const second = pdf.addPage([595, 842]);
    second.drawText('2. Delivery', { x: 50, y: 780, size: 18, font });
    second.drawText('Shipping to the overseas territories takes twelve working days.', { x: 50, y: 750, size: 11, font });
    return Buffer.from(await pdf.save());
  },

  docx: async (): Promise<Buffer> => {
    const doc = new Document({
      sections: [
        {
          children: [
            new Paragraph({ text: 'Employee Handbook', heading: HeadingLevel.HEADING_1 }),
            new Paragraph({ text: 'Leave', heading: HeadingLevel.HEADING_2 }),
            new Paragraph('Annual leave: 25 days'),
            new Paragraph({ text: 'Equipment', heading: HeadingLevel.HEADING_2 }),
            new Paragraph('Every employee may order an ergonomic chair through the facilities desk.'),
          ],
        },
      ],
    });
    return Packer.toBuffer(doc);
  },

  /** A PNG header: a kind of file ingestion does not read. */
  png: () => Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]),
};

export const MIME = {
  text: 'text/plain',
  markdown: 'text/markdown',
  html: 'text/html',
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  png: 'image/png',
} as const;

/** Multipart upload through fetch's FormData, as a client would send it. */
export async function upload(
  t: TestApp,
  key: string,
  file: { bytes: Buffer; filename: string; type?: string } | null,
  fields: Record<string, string> = {},
): Promise<ApiResponse> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (file) form.append('file', new Blob([new Uint8Array(file.bytes)], { type: file.type ?? 'application/octet-stream' }), file.filename);
  const res = await fetch(`${t.baseUrl}/v1/knowledge-sources/upload`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON */
  }
  await assertDocumented(t.baseUrl, 'POST', '/v1/knowledge-sources/upload', res, () => body);
  return { status: res.status, body, headers: res.headers, text };
}

/** Uploads, runs the pending ingestion jobs and returns the source as read back. */
export async function ingest(t: TestApp, tenant: TestTenant, bytes: Buffer, filename: string, fields: Record<string, string> = {}) {
  const res = await upload(t, tenant.key, { bytes, filename }, fields);
  if (res.status !== 202) throw new Error(`upload failed: ${res.status} ${res.text}`);
  await runPendingIngestion(t.app.services);
  const read = await api(t.baseUrl, tenant.key).get(`/v1/knowledge-sources/${res.body.source.id}`);
  return read.body.source as {
    id: string;
    name: string;
    status: string;
    error: string | null;
    format: string | null;
    chunkCount: number;
    factCount: number;
    contradictionCount: number;
    qaCount: number;
    collectionId: string | null;
  };
}
