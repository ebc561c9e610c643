import { Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow, TextRun } from 'docx';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { chunkDocument } from '../../../src/modules/knowledge/parsing/chunk.js';
import {
  DocumentParseError,
  parseDocument,
  UnsupportedDocumentError,
  type ParsedDocument,
} from '../../../src/modules/knowledge/parsing/parse-document.js';

async function twoPagePdf(): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  pdf.setTitle('Partner Price List');
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const first = pdf.addPage([595, 842]);
  first.drawText('1. Pricing Overview', { x: 50, y: 780, size: 18, font });
  first.drawText('The service fee is 120 EUR per month for every workspace on the', { x: 50, y: 750, size: 11, font });
  first.drawText('standard plan, valid until 2026-12-31 unless renewed earlier.', { x: 50, y: 735, size: 11, font });
  first.drawText('1', { x: 290, y: 30, size: 9, font });
  const second = pdf.addPage([595, 842]);
  second.drawText('Discounts apply to yearly contracts signed before the end of the quarter.', { x: 50, y: 780, size: 11, font });
  second.drawText('2.1 Scope', { x: 50, y: 740, size: 16, font });
  second.drawText('This list covers every region except the overseas territories.', { x: 50, y: 710, size: 11, font });
  second.drawText('2', { x: 290, y: 30, size: 9, font });
  return Buffer.from(await pdf.save());
}

async function handbookDocx(): Promise<Buffer> {
  const doc = new Document({
    sections: [
      {
        children: [
          new Paragraph({ text: 'Employee Handbook', heading: HeadingLevel.HEADING_1 }),
          new Paragraph({ children: [new TextRun('Welcome to the team. '), new TextRun({ text: 'Read this first.', bold: true })] }),
          new Paragraph({ text: 'Leave', heading: HeadingLevel.HEADING_2 }),
          new Paragraph('Annual leave: 25 days'),
          new Table({
            rows: [
              new TableRow({ children: [new TableCell({ children: [new Paragraph('Kind')] }), new TableCell({ children: [new Paragraph('Days')] })] }),
              new TableRow({ children: [new TableCell({ children: [new Paragraph('Sick')] }), new TableCell({ children: [new Paragraph('10')] })] }),
            ],
          }),
          new Paragraph({ text: 'Travel', heading: HeadingLevel.HEADING_1 }),
          new Paragraph('Book trains for trips under four hours.'),
        ],
      },
    ],
  });
  return Packer.toBuffer(doc);
}

const sectionsAndPages = (doc: ParsedDocument) => doc.blocks.map((b) => [b.section, b.page]);

describe('parseDocument: PDF', () => {
  it('reads each page with its number, the last heading as section, and the metadata title', async () => {
    const doc = await parseDocument({ bytes: await twoPagePdf(), filename: 'prices.pdf' });
    expect(doc.format).toBe('pdf');
    expect(doc.title).toBe('Partner Price List');
    expect(doc.blocks).toEqual([
      {
        text: 'The service fee is 120 EUR per month for every workspace on the standard plan, valid until 2026-12-31 unless renewed earlier.',
        section: '1. Pricing Overview',
        page: 1,
      },
      { text: 'Discounts apply to yearly contracts signed before the end of the quarter.', section: '1. Pricing Overview', page: 2 },
      { text: 'This list covers every region except the overseas territories.', section: '2.1 Scope', page: 2 },
    ]);
  });

  it('keeps section and page in every chunk', async () => {
    const doc = await parseDocument({ bytes: await twoPagePdf(), filename: 'prices.pdf' });
    const chunks = chunkDocument(doc);
    expect(chunks.map((c) => [c.ordinal, c.section, c.page])).toEqual([
      [0, '1. Pricing Overview', 1],
      [1, '1. Pricing Overview', 2],
      [2, '2.1 Scope', 2],
    ]);
  });

  it('detects a PDF by its magic bytes whatever the name', async () => {
    const doc = await parseDocument({ bytes: await twoPagePdf(), filename: 'download' });
    expect(doc.format).toBe('pdf');
  });
});

describe('parseDocument: DOCX', () => {
  it('takes sections from Word heading styles and puts everything on page 1', async () => {
    const doc = await parseDocument({ bytes: await handbookDocx(), filename: 'handbook.docx' });
    expect(doc.format).toBe('docx');
    expect(doc.title).toBe('Employee Handbook');
    expect(doc.blocks).toEqual([
      { text: 'Welcome to the team. Read this first.', section: 'Employee Handbook', page: 1 },
      { text: 'Annual leave: 25 days', section: 'Employee Handbook > Leave', page: 1 },
      { text: 'Kind | Days\nSick | 10', section: 'Employee Handbook > Leave', page: 1 },
      { text: 'Book trains for trips under four hours.', section: 'Travel', page: 1 },
    ]);
    expect(chunkDocument(doc).map((c) => [c.section, c.page])).toEqual([
      ['Employee Handbook', 1],
      ['Employee Handbook > Leave', 1],
      ['Travel', 1],
    ]);
  });
});

describe('parseDocument: markdown', () => {
  const markdown = [
    '# Guide',
    '',
    'Intro with **bold**, `code`, a [link](https://example.com) and &amp; an entity.',
    '',
    '## Setup',
    '',
    '### Linux',
    '',
    '- Install the package',
    '- Run `svc start`',
    '',
    '| Key | Value |',
    '| --- | --- |',
    '| port | 8080 |',
    '',
    '```sh',
    'svc start --port 8080',
    '```',
    '',
    '## Usage',
    '',
    '> Quoted advice',
    'spanning two lines.',
  ].join('\n');

  it('nests headings into a section path and renders plain text', async () => {
    const doc = await parseDocument({ bytes: Buffer.from(markdown), filename: 'guide.md' });
    expect(doc.format).toBe('markdown');
    expect(doc.title).toBe('Guide');
    expect(doc.blocks).toEqual([
      { text: 'Intro with bold, code, a link and & an entity.', section: 'Guide', page: 1 },
      { text: 'Install the package', section: 'Guide > Setup > Linux', page: 1 },
      { text: 'Run svc start', section: 'Guide > Setup > Linux', page: 1 },
      { text: 'Key | Value\nport | 8080', section: 'Guide > Setup > Linux', page: 1 },
      { text: 'svc start --port 8080', section: 'Guide > Setup > Linux', page: 1 },
      { text: 'Quoted advice spanning two lines.', section: 'Guide > Usage', page: 1 },
    ]);
  });

  it('takes the title from front matter and does not read front matter as text', async () => {
    const source = '---\ntitle: "Release Notes"\ndate: 2026-01-02\n---\n\nVersion 2 ships today.\n';
    const doc = await parseDocument({ bytes: Buffer.from(source), filename: 'notes.md' });
    expect(doc).toEqual({ format: 'markdown', title: 'Release Notes', blocks: [{ text: 'Version 2 ships today.', section: '', page: 1 }] });
  });

  it('reads a markdown file that talks about %PDF as markdown', async () => {
    const doc = await parseDocument({ bytes: Buffer.from('# PDF Internals\n\nEvery file starts with %PDF-1.7.'), filename: 'pdf.md' });
    expect(doc.format).toBe('markdown');
  });

  it('accepts the .markdown extension and a markdown MIME type without extension', async () => {
    expect((await parseDocument({ bytes: Buffer.from('# A\n\nb'), filename: 'x.markdown' })).format).toBe('markdown');
    expect((await parseDocument({ bytes: Buffer.from('# A\n\nb'), filename: 'README', mimeType: 'text/markdown; charset=utf-8' })).format).toBe('markdown');
  });
});

describe('parseDocument: HTML', () => {
  const html = `<!doctype html>
<html><head><title>Help &amp; Support</title><style>p { color: red }</style><script>var secret = "x";</script></head>
<body>
<nav><a href="/">Home</a> <a href="/faq">FAQ</a></nav>
<h1>Support</h1>
<p>Contact us   any
  time.</p>
<script>document.write("hidden")</script>
<h2>Hours</h2>
<ul><li>Monday to Friday</li><li>9:00 to 17:00</li></ul>
<table><tr><th>Plan</th><th>Price</th></tr><tr><td>Pro</td><td>20 &euro;</td></tr></table>
<blockquote>We answer within a day.</blockquote>
<pre>line one
  line two</pre>
<h2>Escalation</h2>
<div>Call the on-call number.<br>Ask for the manager.</div>
</body></html>`;

  it('skips script, style, nav and head, and uses headings as sections', async () => {
    const doc = await parseDocument({ bytes: Buffer.from(html), filename: 'help.html' });
    expect(doc.format).toBe('html');
    expect(doc.title).toBe('Help & Support');
    expect(doc.blocks).toEqual([
      { text: 'Contact us any time.', section: 'Support', page: 1 },
      { text: 'Monday to Friday', section: 'Support > Hours', page: 1 },
      { text: '9:00 to 17:00', section: 'Support > Hours', page: 1 },
      { text: 'Plan | Price\nPro | 20 €', section: 'Support > Hours', page: 1 },
      { text: 'We answer within a day.', section: 'Support > Hours', page: 1 },
      { text: 'line one\n  line two', section: 'Support > Hours', page: 1 },
      { text: 'Call the on-call number.\nAsk for the manager.', section: 'Support > Escalation', page: 1 },
    ]);
    const text = doc.blocks.map((b) => b.text).join('\n');
    expect(text).not.toMatch(/secret|hidden|color|Home/);
  });

  it('reads the body of a page that never closes its head', async () => {
    const doc = await parseDocument({ bytes: Buffer.from('<HEAD><TITLE>Old Page</TITLE><META charset=utf-8><P>Body text.'), filename: 'old.html' });
    expect(doc).toEqual({ format: 'html', title: 'Old Page', blocks: [{ text: 'Body text.', section: '', page: 1 }] });
  });

  it('accepts .htm and falls back on the first h1 for the title', async () => {
    const doc = await parseDocument({ bytes: Buffer.from('<h1>Only Heading</h1><p>Body.</p>'), filename: 'page.HTM' });
    expect(doc.title).toBe('Only Heading');
    expect(sectionsAndPages(doc)).toEqual([['Only Heading', 1]]);
  });
});

describe('parseDocument: plain text', () => {
  it('splits paragraphs on blank lines, unwraps hard-wrapped lines, and reads a heading-like first line as title', async () => {
    const text = [
      'Travel Policy',
      '',
      'Employees book their own trains and flights through the travel portal, which',
      'applies the negotiated rates automatically.',
      '',
      'Hotel cap: 150 EUR',
      'Meal cap: 40 EUR',
      '',
      'REIMBURSEMENT',
      '',
      'Claims are paid monthly.',
    ].join('\r\n');
    const doc = await parseDocument({ bytes: Buffer.from(`\ufeff${text}`), filename: 'policy.txt' });
    expect(doc).toEqual({
      format: 'text',
      title: 'Travel Policy',
      blocks: [
        {
          text: 'Employees book their own trains and flights through the travel portal, which applies the negotiated rates automatically.',
          section: 'Travel Policy',
          page: 1,
        },
        { text: 'Hotel cap: 150 EUR\nMeal cap: 40 EUR', section: 'Travel Policy', page: 1 },
        { text: 'Claims are paid monthly.', section: 'REIMBURSEMENT', page: 1 },
      ],
    });
  });

  it('has an empty section and no title when nothing looks like a heading', async () => {
    const doc = await parseDocument({ bytes: Buffer.from('First paragraph here.\n\nSecond one.'), filename: 'notes.text' });
    expect(doc.title).toBeUndefined();
    expect(sectionsAndPages(doc)).toEqual([['', 1], ['', 1]]);
  });

  it('reads Windows-1252 bytes that are not valid UTF-8', async () => {
    const bytes = Buffer.concat([Buffer.from('Le café coûte 2 ', 'latin1'), Buffer.from([0x80, 0x2e])]);
    const doc = await parseDocument({ bytes, filename: 'menu.txt' });
    expect(doc.blocks[0].text).toBe('Le café coûte 2 €.');
  });
});

describe('parseDocument: refusals', () => {
  const reason = async (bytes: Buffer, filename: string, mimeType?: string) => {
    try {
      await parseDocument({ bytes, filename, mimeType });
    } catch (error) {
      return error as Error;
    }
    throw new Error(`${filename} was accepted`);
  };

  it.each([
    ['sheet.xlsx', Buffer.from('PK\u0003\u0004\u0014\u0000xl/workbook.xml', 'latin1'), 'Unsupported file type: .xlsx (supported: .txt, .md, .html, .pdf, .docx)'],
    ['photo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]), 'Unsupported file type: .png (supported: .txt, .md, .html, .pdf, .docx)'],
    ['archive.zip', Buffer.from('PK\u0003\u0004\u0014\u0000notes.txt', 'latin1'), 'Unsupported file type: .zip (supported: .txt, .md, .html, .pdf, .docx)'],
    ['blob', Buffer.from('PK\u0003\u0004\u0014\u0000data.bin', 'latin1'), 'Unsupported file type: ZIP archive (supported: .txt, .md, .html, .pdf, .docx)'],
    ['image', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]), 'Unsupported file type: JPEG image (supported: .txt, .md, .html, .pdf, .docx)'],
    ['data.bin', Buffer.from([0x00, 0x13, 0xfe, 0x42, 0x99]), 'Unsupported file type: .bin (supported: .txt, .md, .html, .pdf, .docx)'],
    ['noext', Buffer.from('hello'), 'Unsupported file type: unknown (no file extension) (supported: .txt, .md, .html, .pdf, .docx)'],
  ])('refuses %s as unsupported', async (filename, bytes, message) => {
    const error = await reason(bytes, filename);
    expect(error).toBeInstanceOf(UnsupportedDocumentError);
    expect(error.message).toBe(message);
    expect(error).toMatchObject({ status: 415 });
  });

  it('refuses an empty file, whitespace only, and binary content named .txt', async () => {
    expect((await reason(Buffer.alloc(0), 'empty.pdf')).message).toBe('The file is empty');
    expect((await reason(Buffer.from(' \n\n\t'), 'blank.txt')).message).toBe('The document has no extractable text');
    const garbage = Buffer.from(Array.from({ length: 256 }, (_, i) => (i * 37) % 256));
    const error = await reason(garbage, 'garbage.txt');
    expect(error).toBeInstanceOf(DocumentParseError);
    expect(error.message).toBe('The file does not contain readable text (it looks like binary data)');
    expect(error).toMatchObject({ status: 422 });
  });

  it('refuses a PDF without text, a corrupt PDF and a file named .pdf that is not one', async () => {
    const blank = await PDFDocument.create();
    blank.addPage();
    const empty = await reason(Buffer.from(await blank.save()), 'scan.pdf');
    expect(empty).toBeInstanceOf(DocumentParseError);
    expect(empty.message).toBe('The PDF has no extractable text (scanned pages would need OCR, which is not supported)');

    const corrupt = await reason(Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 9 0 R >> broken'), 'broken.pdf');
    expect(corrupt).toBeInstanceOf(DocumentParseError);
    expect(corrupt.message).toBe('The PDF is corrupt or unreadable');

    const truncated = (await twoPagePdf()).subarray(0, 300);
    expect((await reason(truncated, 'cut.pdf')).message).toBe('The PDF is corrupt or unreadable');

    expect((await reason(Buffer.from('just text'), 'fake.pdf')).message).toBe('The file is not a valid PDF (no %PDF header)');
  });

  it('refuses a .docx that is not a Word document', async () => {
    const notZip = await reason(Buffer.from('plain words'), 'letter.docx');
    expect(notZip).toBeInstanceOf(DocumentParseError);
    expect(notZip.message).toBe('The DOCX file is corrupt or not a Word document');
    const brokenZip = await reason(Buffer.from('PK\u0003\u0004 word/document.xml then nothing', 'latin1'), 'letter.docx');
    expect(brokenZip.message).toBe('The DOCX file is corrupt or not a Word document');
  });

  it('refuses a DOCX with no text', async () => {
    const doc = new Document({ sections: [{ children: [new Paragraph('')] }] });
    const error = await reason(await Packer.toBuffer(doc), 'blank.docx');
    expect(error.message).toBe('The document has no extractable text');
  });
});
