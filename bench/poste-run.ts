/**
 * A poste run over a dossier of 50 documents (POST /v1/postes/contract-review/run): the run's latency
 * minus the model's fixed delay per control point, and the time to the first progress event on the SSE
 * form. The 50 documents are generated supply contracts (about 350 words each, every clause the
 * checklist asks about, with different parties and figures).
 *
 *   npx tsx bench/poste-run.ts        (RUNS=5 by default; under a minute)
 *
 * Loopback only; the test app (real PostgreSQL when it answers) and the scripted model (MODEL_DELAY_MS
 * per call) run here; each run is one HTTP call from this process, sequential.
 */
import { api } from '../test/support/api.js';
import { startTestApp } from '../test/support/app.js';
import { startScriptedModelServer } from '../test/support/scripted-model-server.js';
import { runPendingIngestion } from '../src/modules/knowledge/ingestion.worker.js';
import { installPosteAsOperator } from '../src/modules/postes/postes.service.js';

const RUNS = Number(process.env.RUNS ?? 5);
const DOCUMENTS = 50;
const MODEL_DELAY_MS = 50;

const COMPANIES = ['Brightwell', 'Kestrel', 'Norvale', 'Altamira', 'Borealis', 'Cobalt', 'Dunmore', 'Everly', 'Fairhaven', 'Greystone'];
function contract(i: number): string {
  const buyer = COMPANIES[i % COMPANIES.length]!;
  const supplier = COMPANIES[(i * 3 + 1) % COMPANIES.length]!;
  return [
    `# Supply agreement ${i + 1}: ${buyer} and ${supplier}`,
    `Agreement between ${buyer} Holdings (the Buyer) and ${supplier} Supplies (the Supplier), signed on ${1 + (i % 27)} March 2026.`,
    '## Term and renewal',
    `The agreement starts on 1 April 2026 for an initial term of ${1 + (i % 5)} years and renews for one year unless notice is given ${2 + (i % 6)} months before its end.`,
    '## Prices',
    `Prices are fixed for ${6 + (i % 18)} months; after that the Supplier may revise them once a year by no more than ${1 + (i % 7)} percent.`,
    '## Payment terms',
    `Invoices are paid within ${30 + (i % 4) * 15} days of the invoice date. Late payments bear interest at ${2 + (i % 3)} times the legal rate.`,
    '## Liability',
    `Each party's total liability is capped at ${(100 + i * 10).toLocaleString('en-US')},000 EUR per contract year, except for fraud and personal injury.`,
    '## Termination',
    `Either party may terminate for a material breach not remedied within ${15 + (i % 4) * 15} days of a formal notice, and the Buyer for convenience with ${1 + (i % 6)} months' notice.`,
    '## Confidentiality',
    `Both parties keep the terms of the agreement confidential for ${2 + (i % 8)} years after it ends.`,
    '## Governing law',
    `The agreement is governed by French law; disputes go to the commercial court of ${['Lille', 'Lyon', 'Paris', 'Nantes', 'Bordeaux'][i % 5]}.`,
  ].join('\n\n');
}

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
};

const model = await startScriptedModelServer({ delayMs: MODEL_DELAY_MS });
model.setDefault({ content: 'Invoices are paid within 45 days of the invoice date [1].', usage: { prompt: 1200, completion: 20 } });
const t = await startTestApp({ env: { SVC_MODEL_BASE_URL: model.baseUrl, SVC_MODEL_API_KEY: 'bench', SVC_MODEL: 'scripted-model', SVC_RATE_UPLOAD: '1000000' } });
try {
  const tenant = await t.tenant({ seats: 1000 });
  const c = api(t.baseUrl, tenant.key);
  const dossierId = (await c.post('/v1/dossiers', { name: 'Fifty contracts' })).body.dossier.id as string;
  for (let i = 0; i < DOCUMENTS; i++) {
    const form = new FormData();
    form.append('dossierId', dossierId);
    form.append('file', new Blob([contract(i)], { type: 'text/markdown' }), `contract-${i + 1}.md`);
    const res = await fetch(`${t.baseUrl}/v1/knowledge-sources/upload`, { method: 'POST', headers: { authorization: `Bearer ${tenant.key}` }, body: form });
    if (res.status !== 202) throw new Error(`upload ${i}: ${res.status}`);
  }
  await runPendingIngestion(t.app.services);
  const poste = await installPosteAsOperator({ em: t.app.services.orm.em.fork(), clock: t.clock }, tenant.workspaceId, { key: 'contract-review' });
  const items = poste.checklist.length;

  const plain: number[] = [];
  const firstEvent: number[] = [];
  const firstItem: number[] = [];
  let calls = 0;
  for (let r = 0; r <= RUNS; r++) {
    const sent = model.requests.length;
    const started = performance.now();
    const res = await fetch(`${t.baseUrl}/v1/postes/contract-review/run`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ dossierId }),
    });
    const body = (await res.json()) as { run: { status: string; items: { verdict: string }[] } };
    if (res.status !== 201 || body.run.status !== 'completed') throw new Error(`run: ${res.status}`);
    calls = model.requests.length - sent;
    if (r > 0) plain.push(performance.now() - started - calls * MODEL_DELAY_MS);

    const streamStarted = performance.now();
    const stream = await fetch(`${t.baseUrl}/v1/postes/contract-review/run`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant.key}`, 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ dossierId }),
    });
    const reader = stream.body!.getReader();
    let text = '';
    let sawStart = false;
    let sawItem = false;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
      if (!sawStart && text.includes('"type":"start"')) {
        sawStart = true;
        if (r > 0) firstEvent.push(performance.now() - streamStarted);
      }
      if (!sawItem && text.includes('"type":"item"')) {
        sawItem = true;
        if (r > 0) firstItem.push(performance.now() - streamStarted - MODEL_DELAY_MS);
      }
    }
  }
  const fmt = (v: number) => v.toFixed(0);
  process.stdout.write(`Poste run (contract-review, ${items} control points, ${calls} model calls of ${MODEL_DELAY_MS} ms) over a dossier of ${DOCUMENTS} documents, ${t.db.url ? 'PostgreSQL' : 'embedded PGlite'}, ${RUNS} runs\n\n`);
  process.stdout.write('| Measure | p50 (ms) | max (ms) |\n| --- | --- | --- |\n');
  process.stdout.write(`| whole run, model delays subtracted | ${fmt(percentile(plain, 50))} | ${fmt(Math.max(...plain))} |\n`);
  process.stdout.write(`| per control point | ${fmt(percentile(plain, 50) / items)} | ${fmt(Math.max(...plain) / items)} |\n`);
  process.stdout.write(`| SSE: first event (start) | ${fmt(percentile(firstEvent, 50))} | ${fmt(Math.max(...firstEvent))} |\n`);
  process.stdout.write(`| SSE: first item, model delay subtracted | ${fmt(percentile(firstItem, 50))} | ${fmt(Math.max(...firstItem))} |\n`);
} finally {
  await t.close();
  await model.close();
}
