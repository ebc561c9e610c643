/**
 * The agent's mood after a turn (docs/chat.md, "Mood"), derived deterministically from the
 * exchange: a small English/French lexicon gives valence, punctuation and urgency words give
 * arousal, and the result is blended with the agent's previous mood in the same session.
 */
import { words } from '../models/index.js';
import type { StoredMood } from './chat.entity.js';

const POSITIVE = new Set(
  'thanks thank great good excellent perfect love happy glad awesome wonderful nice helpful amazing pleased appreciate success solved works fine congratulations merci super parfait genial excellent content contente heureux heureuse bravo bien top formidable ravi ravie reussi'.split(' '),
);
const NEGATIVE = new Set(
  'problem issue error bug broken fail failed failure wrong bad angry upset frustrated disappointed terrible awful worst hate late lost complaint refund cancel unfortunately sorry urgent worried concern probleme erreur panne bloque echec mauvais fache decu decue nul pire retard perdu plainte annuler malheureusement desole inquiet inquiete'.split(' '),
);
const URGENT = new Set('urgent asap immediately now quickly emergency critical vite immediatement urgence critique'.split(' '));

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));
const round2 = (v: number) => Math.round(v * 100) / 100;

/** Weight of the previous mood when blending (the agent does not swing fully with each message). */
const INERTIA = 0.3;

interface Signal {
  valence: number;
  arousal: number;
}

function signalOf(text: string): Signal {
  const ws = words(text);
  let pos = 0;
  let neg = 0;
  let urgent = 0;
  for (const w of ws) {
    if (POSITIVE.has(w)) pos++;
    if (NEGATIVE.has(w)) neg++;
    if (URGENT.has(w)) urgent++;
  }
  const exclamations = (text.match(/!/g) ?? []).length;
  const shouting = (text.match(/\b[A-Z]{4,}\b/g) ?? []).length;
  return {
    valence: (pos - neg) / (pos + neg + 2),
    arousal: clamp(0.25 + 0.1 * Math.min(exclamations, 3) + 0.15 * Math.min(urgent, 2) + 0.1 * Math.min(shouting, 2) + 0.05 * Math.min(pos + neg, 4), 0, 1),
  };
}

function emotionOf(valence: number, arousal: number, question: boolean): string {
  if (valence >= 0.25) return arousal >= 0.5 ? 'enthusiastic' : 'content';
  if (valence <= -0.25) return arousal >= 0.5 ? 'concerned' : 'empathetic';
  if (arousal >= 0.5) return 'alert';
  return question ? 'curious' : 'calm';
}

/** The mood after this exchange; `previous` is the agent's last mood in the session, if any. */
export function deriveMood(userMessage: string, answer: string, previous?: StoredMood | null): StoredMood {
  const user = signalOf(userMessage);
  const own = signalOf(answer);
  let valence = 0.6 * user.valence + 0.4 * own.valence;
  let arousal = 0.6 * user.arousal + 0.4 * own.arousal;
  if (previous) {
    valence = (1 - INERTIA) * valence + INERTIA * previous.valence;
    arousal = (1 - INERTIA) * arousal + INERTIA * previous.arousal;
  }
  valence = clamp(valence, -1, 1);
  arousal = clamp(arousal, 0, 1);
  return {
    emotion: emotionOf(valence, arousal, userMessage.trim().endsWith('?')),
    valence: round2(valence),
    arousal: round2(arousal),
    intensity: round2(clamp(0.6 * Math.abs(valence) + 0.4 * arousal, 0, 1)),
  };
}
