/**
 * The verifier's claims of one labelled set scored in process, without the app or a database: the same
 * passages as bench/quality.ts (each claim against its own documents, whole, named by file name) given to
 * the engine directly, so a rule can be tried on the tuning sets in seconds. The figures of docs/quality.md
 * come from bench/quality.ts (through the service); these are the same verdicts, faster.
 *
 *   npx tsx bench/verify-claims.ts [--set tuning|tuning-2|tuning-3]   FAILURES=1 lists the wrong ones
 */
import { Verifier } from '../src/modules/verify/engine.js';
import { CLAIM_KINDS, kindsOf, loadHalf, verifierFigures, type ClaimOutcome } from './support/quality-set.js';

const setArg = process.argv.indexOf('--set');
const half = setArg > 0 && process.argv[setArg + 1] ? process.argv[setArg + 1]! : 'tuning';
if (half.startsWith('held-out')) throw new Error('held-out sets are measured by the coordinator only, through bench/quality.ts');
const set = loadHalf(half);
const base = (n: string) => n.replace(/^.*\//, '');
const outcomes: ClaimOutcome[] = [];
for (const claim of set.claims) {
  const docs = claim.documents.map((n) => set.documents.find((d) => d.name === base(n) || d.name === `${base(n)}.md` || d.name.replace(/\.md$/, '') === base(n))).filter((d) => d !== undefined);
  const v = new Verifier(claim.claim);
  await v.addPassages((docs.length > 0 ? docs : set.documents).map((d) => ({ source: d.name, content: d.text })));
  const report = await v.verify(claim.claim);
  const verdicts = report.map((x) => x.verdict);
  const got = verdicts.includes('contradicted') ? 'contradicted' : verdicts.includes('unverifiable') || verdicts.length === 0 ? 'unverifiable' : 'supported';
  const decisive = report.find((x) => x.verdict === got) ?? report[0];
  outcomes.push({ claim, got, rule: decisive?.rule ?? 'none', evidence: decisive?.evidence[0]?.quote ?? null });
}
const pct = (x: number | null) => (x === null ? '–' : `${(100 * x).toFixed(1)}%`);
const dec = (x: number | null) => (x === null ? '–' : x.toFixed(3));
console.log(`${half}: ${set.claims.length} claims\n`);
console.log('| Claims | n | accuracy | supported precision | contradicted precision | predicted S / C / U |');
console.log('| --- | --- | --- | --- | --- | --- |');
for (const kind of ['all', ...kindsOf(set.claims, CLAIM_KINDS)]) {
  const f = verifierFigures(outcomes.filter((o) => kind === 'all' || o.claim.kind === kind));
  console.log(`| ${kind} | ${f.n} | ${pct(f.accuracy)} | ${dec(f.supportedPrecision)} | ${dec(f.contradictedPrecision)} | ${f.predicted.supported} / ${f.predicted.contradicted} / ${f.predicted.unverifiable} |`);
}
if (process.env.FAILURES) {
  console.log('\nWrong verdicts:');
  for (const o of outcomes.filter((x) => x.got !== x.claim.label)) {
    console.log(`- ${o.claim.id} [${o.claim.kind}] ${o.claim.label} -> ${o.got} (${o.rule}): ${o.claim.claim}\n    evidence: ${o.evidence ?? '-'}`);
  }
}
