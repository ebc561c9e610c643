/**
 * The verifier's verdict-making rules audited across the tuning sets (issue 26, ninth round: precision on unseen
 * documents). Each claim of each set is run in process as in bench/verify-claims.ts; each supported or contradicted
 * verdict is counted under the mechanism that made it (`reasonOf`, finer than the report's `rule`), with how many were
 * right, per set. A rule whose verdicts are few, or right only on the set it was written for, is suspect.
 *
 *   npx tsx bench/verify-audit.ts [--sets tuning,tuning-2,…]   WRONG=1 lists every wrong supported / contradicted verdict,
 *   ALL=1 every supported / contradicted verdict with its mechanism (to compare two versions)
 *
 * Held-out sets are refused: they are measured by the coordinator only.
 */
import { reasonOf, Verifier } from '../src/modules/verify/engine.js';
import { loadHalf } from './support/quality-set.js';

const setsArg = process.argv.indexOf('--sets');
const sets = setsArg > 0 ? process.argv[setsArg + 1]!.split(',') : ['tuning', 'tuning-2', 'tuning-3', 'tuning-4', 'tuning-5', 'tuning-6', 'tuning-7'];
if (sets.some((s) => s.startsWith('held-out'))) throw new Error('held-out sets are measured by the coordinator only');
const base = (n: string) => n.replace(/^.*\//, '');
// reason -> set -> [fired, right]
const table = new Map<string, Map<string, [number, number]>>();
const wrong: string[] = [];
for (const name of sets) {
  const set = loadHalf(name);
  for (const claim of set.claims) {
    const docs = claim.documents.map((n) => set.documents.find((d) => d.name === base(n) || d.name === `${base(n)}.md` || d.name.replace(/\.md$/, '') === base(n))).filter((d) => d !== undefined);
    const v = new Verifier(claim.claim);
    await v.addPassages((docs.length > 0 ? docs : set.documents).map((d) => ({ source: d.name, content: d.text })));
    const report = await v.verify(claim.claim);
    const verdicts = report.map((x) => x.verdict);
    const got = verdicts.includes('contradicted') ? 'contradicted' : verdicts.includes('unverifiable') || verdicts.length === 0 ? 'unverifiable' : 'supported';
    if (got === 'unverifiable') continue;
    const decisive = report.find((x) => x.verdict === got)!;
    const reason = `${got === 'supported' ? 'S' : 'C'} ${reasonOf(decisive)}`;
    const row = table.get(reason) ?? new Map<string, [number, number]>();
    table.set(reason, row);
    const cell = row.get(name) ?? [0, 0];
    cell[0]++;
    if (got === claim.label) cell[1]++;
    else wrong.push(`- ${name} ${claim.id} [${claim.kind}] ${claim.label} -> ${got} (${reasonOf(decisive)}): ${claim.claim}\n    evidence: ${decisive.evidence[0]?.quote ?? '-'}`);
    row.set(name, cell);
    if (process.env.ALL) console.log(`${name} ${claim.id} ${claim.label} -> ${got} ${reasonOf(decisive)}`);
  }
}
console.log(`| verdict and mechanism | ${sets.join(' | ')} | all |`);
console.log(`| --- | ${sets.map(() => '---').join(' | ')} | --- |`);
for (const [reason, row] of [...table].sort((a, b) => a[0].localeCompare(b[0]))) {
  let f = 0;
  let r = 0;
  const cells = sets.map((s) => {
    const c = row.get(s);
    if (!c) return '';
    f += c[0];
    r += c[1];
    return `${c[1]}/${c[0]}`;
  });
  console.log(`| ${reason} | ${cells.join(' | ')} | ${r}/${f} |`);
}
if (process.env.WRONG) console.log(`\nWrong supported / contradicted verdicts:\n${wrong.join('\n')}`);
