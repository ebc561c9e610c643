/**
 * Trains the built-in model's learned sentence choice (src/modules/models/local-learned.ts; docs/light.md, "The learned
 * sentence choice") on the development sets, offline and reproducibly:
 *
 *   npx tsx bench/dump-light-requests.ts /tmp/llearn-dump.json tuning tuning-2 ... tuning-14   (the requests, once)
 *   npx tsx bench/train-light-answer.ts /tmp/llearn-dump.json            leave-one-set-out CV, then the final weights
 *   WRITE=0 ...                                                          CV only, the weights file untouched
 *
 * For each answerable question the gate let through, the candidates are the sentences the rules could answer with
 * (local-learned.ts, poolOf); a candidate's label is whether it states every fact of the question (one alternative of
 * each group, as bench/quality.ts reads an answer). A pointwise logistic regression (L2, Newton's method, features
 * standardised) is fitted; each question weighs the same (its positives and its negatives each sum to one). The
 * regularisation is chosen by leave-one-set-out cross-validation over the development sets, scored as bench/quality.ts
 * scores light: the whole answer of the built-in model (answerLocally, its shape unchanged) states the facts. The final
 * weights are fitted on every development set and written to src/modules/models/local-learned-weights.json.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { answerLocally, choose } from '../src/modules/models/local-answer.js';
import { gatherCandidates } from '../src/modules/models/local-candidates.js';
import { FEATURES, featuresOf, poolOf, setLearnedWeights, type LearnedWeights } from '../src/modules/models/local-learned.js';
import { smallTalkOf, contentStems } from '../src/modules/models/text-match.js';
import type { Dumped } from './dump-light-requests.js';
import { statesFacts } from './support/quality-set.js';

const dumpFile = process.argv[2] ?? '/tmp/llearn-dump.json';
const dumped = JSON.parse(readFileSync(dumpFile, 'utf8')) as Dumped[];
const sets = [...new Set(dumped.map((d) => d.set))];

interface Item {
  d: Dumped;
  xs: number[][];
  ys: number[];
}

const items: Item[] = dumped.map((d) => {
  const question = d.request.messages.findLast((m) => m.role === 'user')?.content.trim() ?? '';
  const candidates = gatherCandidates(d.request.material, d.request.messages);
  if (smallTalkOf(question) || contentStems(question).size === 0) return { d, xs: [], ys: [] };
  const choice = choose(candidates, question);
  const pool = poolOf(choice);
  return { d, xs: featuresOf(question, candidates, choice, pool), ys: pool.map((r) => (statesFacts(r.candidate.text, d.facts) ? 1 : 0)) };
});

/** Solves A x = b (Gaussian elimination, partial pivoting). */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[p]![c]!)) p = r;
    [m[c], m[p]] = [m[p]!, m[c]!];
    for (let r = c + 1; r < n; r++) {
      const f = m[r]![c]! / m[c]![c]!;
      for (let k = c; k <= n; k++) m[r]![k]! -= f * m[c]![k]!;
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let s = m[r]![n]!;
    for (let k = r + 1; k < n; k++) s -= m[r]![k]! * x[k]!;
    x[r] = s / m[r]![r]!;
  }
  return x;
}

const MODE = process.env.MODE ?? 'listwise';

/**
 * The weights: listwise (default), a softmax over each question's candidates fitted to the share of its stating ones
 * (conditional logit, L2); pointwise, a logistic regression with L2 (the bias unpenalised), each question weighing the same.
 */
function fit(train: Item[], lambda: number): LearnedWeights {
  const rows: { x: number[]; y: number; w: number }[] = [];
  for (const it of train) {
    const pos = it.ys.filter((y) => y === 1).length;
    const neg = it.ys.length - pos;
    if (pos === 0 || neg === 0) continue; // nothing to choose between
    it.xs.forEach((x, i) => rows.push({ x, y: it.ys[i]!, w: it.ys[i] === 1 ? 1 / pos : 1 / neg }));
  }
  const d = FEATURES.length;
  const mean = new Array<number>(d).fill(0);
  const scale = new Array<number>(d).fill(0);
  for (const r of rows) r.x.forEach((v, i) => (mean[i]! += v / rows.length));
  for (const r of rows) r.x.forEach((v, i) => (scale[i]! += (v - mean[i]!) ** 2 / rows.length));
  for (let i = 0; i < d; i++) scale[i] = Math.sqrt(scale[i]!) || 1;
  const z = rows.map((r) => [1, ...r.x.map((v, i) => (v - mean[i]!) / scale[i]!)]);
  let beta = new Array<number>(d + 1).fill(0);
  if (MODE === 'listwise') {
    // Rows of one question follow each other; groups by question.
    const groups: number[][] = [];
    let n = 0;
    for (const it of train) {
      const pos = it.ys.filter((y) => y === 1).length;
      if (pos === 0 || pos === it.ys.length) continue;
      groups.push(it.xs.map((_x, i) => n + i));
      n += it.xs.length;
    }
    for (let iter = 0; iter < 30; iter++) {
      const grad = new Array<number>(d + 1).fill(0);
      const hess = Array.from({ length: d + 1 }, () => new Array<number>(d + 1).fill(0));
      for (const g of groups) {
        const zs = g.map((k) => z[k]!.reduce((s, v, i) => s + v * beta[i]!, 0));
        const top = Math.max(...zs);
        const es = zs.map((v) => Math.exp(v - top));
        const sum = es.reduce((a, b) => a + b, 0);
        const ps = es.map((e) => e / sum);
        const pos = g.filter((k) => rows[k]!.y === 1).length;
        const mu = new Array<number>(d + 1).fill(0);
        g.forEach((k, j) => {
          const x = z[k]!;
          const t = rows[k]!.y === 1 ? 1 / pos : 0;
          for (let i = 0; i <= d; i++) {
            grad[i]! += (ps[j]! - t) * x[i]!;
            mu[i]! += ps[j]! * x[i]!;
            for (let m = i; m <= d; m++) hess[i]![m]! += ps[j]! * x[i]! * x[m]!;
          }
        });
        for (let i = 0; i <= d; i++) for (let m = i; m <= d; m++) hess[i]![m]! -= mu[i]! * mu[m]!;
      }
      for (let i = 0; i <= d; i++) for (let k = 0; k < i; k++) hess[i]![k] = hess[k]![i]!;
      for (let i = 1; i <= d; i++) {
        grad[i]! += lambda * beta[i]!;
        hess[i]![i]! += lambda;
      }
      hess[0]![0]! += 1; // the bias: constant within a question, left at 0
      grad[0] = 0;
      const step = solve(hess, grad);
      beta = beta.map((b, i) => b - step[i]!);
      if (Math.max(...step.map(Math.abs)) < 1e-8) break;
    }
  }
  for (let iter = 0; iter < (MODE === 'listwise' ? 0 : 30); iter++) {
    const grad = new Array<number>(d + 1).fill(0);
    const hess = Array.from({ length: d + 1 }, () => new Array<number>(d + 1).fill(0));
    rows.forEach((r, n) => {
      const x = z[n]!;
      const p = 1 / (1 + Math.exp(-x.reduce((s, v, i) => s + v * beta[i]!, 0)));
      const g = r.w * (p - r.y);
      const h = r.w * p * (1 - p);
      for (let i = 0; i <= d; i++) {
        grad[i]! += g * x[i]!;
        for (let k = i; k <= d; k++) hess[i]![k]! += h * x[i]! * x[k]!;
      }
    });
    for (let i = 0; i <= d; i++) for (let k = 0; k < i; k++) hess[i]![k] = hess[k]![i]!;
    for (let i = 1; i <= d; i++) {
      grad[i]! += lambda * beta[i]!;
      hess[i]![i]! += lambda;
    }
    hess[0]![0]! += 1e-9;
    const step = solve(hess, grad);
    beta = beta.map((b, i) => b - step[i]!);
    if (Math.max(...step.map(Math.abs)) < 1e-8) break;
  }
  const round = (v: number) => Math.round(v * 1e6) / 1e6;
  return { features: [...FEATURES], bias: round(beta[0]!), weights: beta.slice(1).map(round), mean: mean.map(round), scale: scale.map(round) };
}

/** Right facts of the built-in model's whole answers (as bench/quality.ts reads them), with the given weights. */
function rightFacts(test: Item[], w: LearnedWeights | null): number {
  setLearnedWeights(w);
  let right = 0;
  for (const it of test) {
    const { content } = answerLocally({ messages: it.d.request.messages, material: it.d.request.material, maxTokens: 800 });
    if (statesFacts(content, it.d.facts)) right++;
  }
  setLearnedWeights(undefined);
  return right;
}

const bySet = (s: string) => items.filter((it) => it.d.set === s);
const before = new Map(sets.map((s) => [s, rightFacts(bySet(s), null)]));
const dumpedRight = dumped.filter((d) => d.rightFact).length;
console.log(`${items.length} answered answerable questions on ${sets.length} development sets; rules' right facts ${[...before.values()].reduce((a, b) => a + b, 0)} (as dumped through the service: ${dumpedRight})`);
console.log(`candidates: ${items.reduce((n, it) => n + it.xs.length, 0)}; questions with a stating candidate: ${items.filter((it) => it.ys.includes(1)).length}`);

const LAMBDAS = (process.env.LAMBDAS ?? '10,30,100,300').split(',').map(Number);
const cv = new Map<number, Map<string, number>>();
for (const lambda of LAMBDAS) {
  const per = new Map<string, number>();
  for (const s of sets) per.set(s, rightFacts(bySet(s), fit(items.filter((it) => it.d.set !== s), lambda)));
  cv.set(lambda, per);
  console.log(`lambda ${lambda}: leave-one-set-out right facts ${[...per.values()].reduce((a, b) => a + b, 0)}`);
}
const chosen = LAMBDAS.reduce((a, b) => ([...cv.get(b)!.values()].reduce((x, y) => x + y, 0) > [...cv.get(a)!.values()].reduce((x, y) => x + y, 0) ? b : a));
console.log(`\nchosen lambda ${chosen}\n\n| Set | answered | rules' right facts | learned, set left out |\n| --- | --- | --- | --- |`);
for (const s of sets) console.log(`| ${s} | ${bySet(s).length} | ${before.get(s)} | ${cv.get(chosen)!.get(s)} |`);
const tb = [...before.values()].reduce((a, b) => a + b, 0);
const ta = [...cv.get(chosen)!.values()].reduce((a, b) => a + b, 0);
console.log(`| all | ${items.length} | ${tb} (${((100 * tb) / items.length).toFixed(1)} %) | ${ta} (${((100 * ta) / items.length).toFixed(1)} %) |`);

const final = fit(items, chosen);
console.log(`\nfinal weights (all development sets): right facts ${rightFacts(items, final)} of ${items.length} on the sets trained on`);
console.log(`  per set (rules -> final): ${sets.map((s) => `${s} ${before.get(s)}->${rightFacts(bySet(s), final)}`).join(', ')}`);
for (const [i, f] of FEATURES.entries()) console.log(`  ${f.padEnd(16)} ${final.weights[i]!.toFixed(3)}`);
if (process.env.WRITE !== '0') {
  const out = fileURLToPath(new URL('../src/modules/models/local-learned-weights.json', import.meta.url));
  writeFileSync(out, `${JSON.stringify({ ...final, lambda: chosen, trainedOn: sets }, null, 2)}\n`);
  console.log(`written ${out}`);
}
