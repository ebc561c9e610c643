/**
 * The built-in model's requests on light questions, for bench/train-light-answer.ts (docs/light.md, "The learned
 * sentence choice"): every question of a development set through POST /light/ask on the built-in model (as
 * bench/quality.ts asks it), with what the model was given (messages and material) recorded for each answerable
 * question the gate let through. The gate and the search decide the request; the model's own choice does not.
 *
 *   npx tsx bench/dump-light-requests.ts OUT.json tuning tuning-2 ...      (development sets only)
 */
import { writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createApp, listen } from '../src/app/create-app.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/lib/logger.js';
import { runPendingIngestion } from '../src/modules/knowledge/ingestion.worker.js';
import type { CompletionRequest } from '../src/modules/models/index.js';
import { createWorkspace } from '../src/modules/provisioning/provisioning.service.js';
import { createTestDatabase } from '../test/support/database.js';
import { loadHalf, runQuestions, uploadHalf } from './support/quality-set.js';

const [out, ...sets] = process.argv.slice(2);
if (!out || sets.length === 0 || sets.some((s) => !/^tuning(-\d+)?$/.test(s) || ['tuning-15', 'tuning-16', 'tuning-17'].includes(s))) {
  console.error('usage: dump-light-requests.ts OUT.json SET... (development sets: tuning, tuning-2 ... tuning-14)');
  process.exit(2);
}

export interface Dumped {
  set: string;
  id: string;
  question: string;
  facts: string[][];
  request: Pick<CompletionRequest, 'messages' | 'material'>;
  /** What the built-in model answered when dumped (the answer of the build that dumped). */
  answer: string;
  rightFact: boolean;
}

const dumped: Dumped[] = [];
for (const name of sets) {
  const set = loadHalf(name);
  const db = await createTestDatabase();
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    SVC_BACKGROUND_JOBS: 'off',
    SVC_DEPLOYMENT: 'onprem',
    SVC_DATA_DIR: db.dataDir,
    SVC_RATE_UPLOAD: '1000000',
    SVC_RATE_VERIFY: '1000000',
    SVC_RATE_KNOWLEDGE_QUERY: '1000000',
    ...(db.url ? { DATABASE_URL: db.url } : {}),
  });
  const app = await createApp({ config, log: createLogger('silent') });
  const local = app.services.models.local();
  const seen = new Map<string, Pick<CompletionRequest, 'messages' | 'material'>>();
  const complete = local.complete.bind(local);
  local.complete = async (req: CompletionRequest) => {
    const q = req.messages.findLast((m) => m.role === 'user')?.content ?? '';
    seen.set(q.trim(), { messages: req.messages, material: req.material });
    return complete(req);
  };
  const server = await listen(app.http, 0, '127.0.0.1');
  try {
    const { issued } = await createWorkspace({ em: app.services.orm.em.fork(), clock: app.services.clock }, { name: `dump ${name}`, plan: 'cabinet', seats: 100 });
    const c = { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, key: issued.secret };
    await uploadHalf(c, set);
    await runPendingIngestion(app.services);
    const outcomes = await runQuestions(c, set);
    for (const o of outcomes) {
      const request = seen.get(o.question.question.trim());
      if (!o.question.answerable || !request) continue;
      dumped.push({ set: name, id: o.question.id, question: o.question.question, facts: o.question.facts, request, answer: o.answer, rightFact: o.rightFact });
    }
    console.error(`${name}: ${outcomes.filter((o) => o.question.answerable && seen.has(o.question.question.trim())).length} answerable questions reached the model`);
  } finally {
    server.closeAllConnections();
    server.close();
    await app.close();
    await db.drop();
  }
}
writeFileSync(out, JSON.stringify(dumped));
console.error(`${dumped.length} requests written to ${out}`);
