/**
 * The synthesis the model wrote, read leniently into its parts (docs/debates.md, "The synthesis"): a
 * remote model answers the JSON object it was asked for; the local model fills each field with the
 * sentence of the debate that matches it best. A disagreement with no holder named is attributed to
 * the debaters who said it; a confidence that is not a number from 0 to 1 is derived from the counts.
 */
import { foldText, splitSentences } from '../models/index.js';
import type { StoredParticipant, StoredSynthesis } from './conversation.entity.js';
import type { SaidBefore } from './debate-prompt.js';

type Parts = Pick<StoredSynthesis, 'agreements' | 'disagreements' | 'recommendation' | 'confidence' | 'verdict'>;

const CITATION = /\s*\[\d+\]/g;

function strings(value: unknown): string[] {
  if (typeof value === 'string') return value.trim() ? [value.trim()] : [];
  if (!Array.isArray(value)) return [];
  return value
    .map((v) => (typeof v === 'string' ? v : v && typeof v === 'object' && typeof (v as { point?: unknown }).point === 'string' ? (v as { point: string }).point : ''))
    .map((s) => s.trim())
    .filter(Boolean);
}

function parseObject(text: string): Record<string, unknown> {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start) return {};
  try {
    const value: unknown = JSON.parse(text.slice(start, end + 1));
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Names (or ids) the model gave, as the agent ids of the roster. */
function holders(value: unknown, participants: StoredParticipant[]): string[] {
  const names = Array.isArray(value) ? value : typeof value === 'string' ? value.split(/,| and /) : [];
  const ids: string[] = [];
  for (const raw of names) {
    if (typeof raw !== 'string') continue;
    const wanted = foldText(raw.trim());
    const seat = participants.find((p) => p.agentId === raw.trim() || foldText(p.name) === wanted);
    if (seat && !ids.includes(seat.agentId)) ids.push(seat.agentId);
  }
  return ids;
}

/** Speakers whose turns contain the point (citations aside). */
function speakersOf(point: string, transcript: SaidBefore[]): string[] {
  const needle = foldText(point.replace(CITATION, '')).trim();
  if (!needle) return [];
  const ids: string[] = [];
  for (const m of transcript) {
    if (m.kind !== 'turn' || !m.speaker) continue;
    if (foldText(m.content.replace(CITATION, '')).includes(needle) && !ids.includes(m.speaker.agentId)) ids.push(m.speaker.agentId);
  }
  return ids;
}

export function readSynthesis(text: string, participants: StoredParticipant[], transcript: SaidBefore[]): Parts {
  const json = parseObject(text);
  const agreements = strings(json.agreements);
  const rawDisagreements: unknown[] = Array.isArray(json.disagreements) ? json.disagreements : strings(json.disagreements);
  const devilsAdvocate = participants.find((p) => p.isDevilsAdvocate)?.agentId;
  const disagreements = rawDisagreements
    .map((d) => {
      const point = typeof d === 'string' ? d.trim() : d && typeof d === 'object' ? String((d as { point?: unknown }).point ?? '').trim() : '';
      const named = d && typeof d === 'object' ? holders((d as { heldBy?: unknown }).heldBy, participants) : [];
      const heldBy = named.length > 0 ? named : speakersOf(point, transcript);
      return { point, heldBy: heldBy.length > 0 ? heldBy : devilsAdvocate ? [devilsAdvocate] : [] };
    })
    .filter((d) => d.point !== '');
  const recommendation = typeof json.recommendation === 'string' ? json.recommendation.trim() : strings(json.recommendation).join(' ');
  if (agreements.length === 0 && disagreements.length === 0 && !recommendation) return extractiveSynthesis(participants, transcript);
  const given = typeof json.confidence === 'number' ? json.confidence : typeof json.confidence === 'string' ? Number(json.confidence) : NaN;
  const confidence = Number.isFinite(given) && given >= 0 && given <= 1 ? given : derivedConfidence(agreements.length, disagreements.length);
  return { agreements, disagreements, recommendation, confidence, verdict: disagreements.length === 0 ? 'consensus' : 'contested' };
}

/**
 * The synthesis read from the debate itself, when the model's says nothing usable (the built-in local
 * model fills fields with sentences only when their words match), naming who said what: points of
 * agreement are the sentences two or more regular debaters made (`… (Tess, Sam)`), or, when each
 * debater made its own points (the built-in model has them draw on different passages), each regular
 * debater's opening point of its last turn (`Tess: …`); the open disagreements are what the devil's
 * advocate said beyond them; the recommendation is the most shared point, else the first debater's.
 */
export function extractiveSynthesis(participants: StoredParticipant[], transcript: SaidBefore[]): Parts {
  const name = (id: string) => participants.find((p) => p.agentId === id)?.name ?? id;
  const lastPoint = new Map<string, string>();
  const said = new Map<string, { text: string; by: Set<string>; order: number }>();
  const devil: { key: string; text: string }[] = [];
  const turnsOpened = new Set<SaidBefore>();
  for (const m of transcript) {
    if (m.kind !== 'turn' || !m.speaker) continue;
    for (const raw of splitSentences(m.content)) {
      const text = raw.replace(CITATION, '').trim();
      const key = foldText(text);
      if (!key || /^my mission\b/.test(key)) continue;
      if (m.speaker.isDevilsAdvocate) {
        if (!devil.some((d) => d.key === key)) devil.push({ key, text });
        continue;
      }
      if (!turnsOpened.has(m)) {
        turnsOpened.add(m);
        lastPoint.set(m.speaker.agentId, text);
      }
      const entry = said.get(key) ?? { text, by: new Set<string>(), order: said.size };
      entry.by.add(m.speaker.agentId);
      said.set(key, entry);
    }
  }
  const shared = [...said.values()].filter((e) => e.by.size >= 2).sort((x, y) => y.by.size - x.by.size || x.order - y.order);
  const agreed = new Set(shared.map((e) => foldText(e.text)));
  const devilsAdvocate = participants.find((p) => p.isDevilsAdvocate)?.agentId;
  const disagreements = devil
    .filter((d) => !agreed.has(d.key))
    .slice(0, 3)
    .map((d) => ({ point: d.text, heldBy: devilsAdvocate ? [devilsAdvocate] : [] }));
  const own = [...lastPoint].filter(([, text]) => !agreed.has(foldText(text)));
  const agreements =
    shared.length > 0
      ? shared.slice(0, 3).map((e) => `${e.text} (${[...e.by].map(name).join(', ')})`)
      : own.slice(0, 3).map(([id, text]) => `${name(id)}: ${text}`);
  return {
    agreements,
    disagreements,
    recommendation: agreements[0] ?? '',
    confidence: derivedConfidence(agreements.length, disagreements.length),
    verdict: disagreements.length === 0 ? 'consensus' : 'contested',
  };
}

/** Share of agreed points among the points made, kept within 0.2 to 0.9 (never certainty from counting). */
export function derivedConfidence(agreed: number, disputed: number): number {
  const total = agreed + disputed;
  const share = total === 0 ? 0.5 : agreed / total;
  return Math.round(Math.min(0.9, Math.max(0.2, share)) * 100) / 100;
}

/** The synthesis as text: what the `content` of its message and the certificate's answer hash hold. */
export function renderSynthesis(parts: Parts, participants: StoredParticipant[]): string {
  const name = (id: string) => participants.find((p) => p.agentId === id)?.name ?? id;
  const lines: string[] = ['Points of agreement:'];
  lines.push(...(parts.agreements.length > 0 ? parts.agreements.map((a) => `- ${a}`) : ['- none stated']));
  lines.push('Open disagreements:');
  lines.push(
    ...(parts.disagreements.length > 0
      ? parts.disagreements.map((d) => `- ${d.point}${d.heldBy.length > 0 ? ` (held by ${d.heldBy.map(name).join(', ')})` : ''}`)
      : ['- none']),
  );
  lines.push(`Recommendation: ${parts.recommendation || 'none stated'}`);
  lines.push(`Confidence: ${Math.round(parts.confidence * 100)}%`);
  return lines.join('\n');
}
