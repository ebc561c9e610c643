import { askedOf, focusOf, headForms, namesItem, namesOtherYears, rowHoldsValue, rowNamesOther, withoutOwnFigures, languageOf, saysWord, sentenceAnswers, type Asked } from '../../lib/language/asked.js';
import { namesSister } from '../../lib/language/sister-names.js';
import { holdsAnswerType } from '../../lib/language/answer-type.js';
import { countedOf, countsThing } from '../../lib/language/counted.js';
import { translationsOf } from '../../lib/language/glossary.js';
import { gatherCandidates, introOf, rank, SENTENCE_LENGTH_B, type Candidate, type Choice, type Ranked } from './local-candidates.js';
import { learnedChoice } from './local-learned.js';
import type { ChatMessage, CompletionRequest, PersonaMaterial } from './provider.js';
import { contentStems, foldText, looksFrench, smallTalkOf, splitSentences, words, type SmallTalk } from './text-match.js';
import { countTextTokens, truncateToTokens } from './tokenizer.js';

/** At most this many sentences per answer, each scoring at least KEEP_RATIO of the best. */
const MAX_SENTENCES = 3;
const KEEP_RATIO = 0.5;
const EXCERPT_CHARS = 80;

export interface LocalAnswer {
  content: string;
  /** True when the answer had to be cut to fit maxTokens. */
  truncated: boolean;
}

interface TextAnswer extends LocalAnswer {
  refs: number[];
}

/** The built-in model's whole answer: extractive, deterministic, never a tool call. */
/**
 * The question is matched on its first QUESTION_CHARS characters: enough for any question, and a
 * gateway prompt of half a million characters is not stemmed whole on the event loop.
 */
const QUESTION_CHARS = 10_000;

export function answerLocally(req: CompletionRequest): LocalAnswer {
  const question = lastUserText(req.messages).slice(0, QUESTION_CHARS);
  const candidates = gatherCandidates(req.material, req.messages);
  const fields = req.material?.jsonFields;
  if (req.json && fields && Object.keys(fields).length > 0) {
    return { content: JSON.stringify(fillFields(candidates, question, fields)), truncated: false };
  }
  const answer = answerText(candidates, question, req.material?.persona, req.maxTokens, saidKeys(req.material?.alreadySaid));
  if (!req.json) return answer;
  return { content: JSON.stringify({ answer: answer.content, sources: answer.refs }), truncated: false };
}

function answerText(
  candidates: Candidate[],
  question: string,
  persona: PersonaMaterial | undefined,
  maxTokens: number | undefined,
  said: Set<string> = new Set(),
): TextAnswer {
  const talk = smallTalkOf(question);
  if (talk) return plain(smallTalkReply(talk, question, persona));
  const stems = contentStems(question);
  if (stems.size === 0 && persona) {
    return plain([introOf(persona.name, persona.role), persona.mission && `My mission: ${persona.mission}`].filter(Boolean).join(' '));
  }
  const choice = choose(candidates, question, stems);
  // What was already said in the conversation gives way to what was not, when there is any.
  const freshOf = (rs: Ranked[]) => {
    const fresh = said.size > 0 ? rs.filter((r) => !said.has(sayingKey(r.candidate.text))) : rs;
    return fresh.length > 0 ? fresh : rs;
  };
  const ruled = pick(freshOf(choice.best));
  // The learned choice (docs/light.md, "The learned sentence choice"): on passages alone, the sentences the rules could
  // answer with, in the order of the weights trained on the development sets, as many as the rules would answer with.
  const learned = learnedChoice(question, candidates, choice);
  const picked = learned ? pick(freshOf(learned), ruled.length, 0) : ruled;
  if (picked.length === 0) return plain(nothingFound(question, persona));
  // A question asking a type of value (a rate, an amount, a date) whose picked sentences hold none of that type but the
  // question's own figures (`free over £400` for a charge `below £400`; `selon le taux transmis` for `quel taux`; `la date
  // sera fixée` for `quelle date`): nothing says what is asked, and the honest answer is that nothing was found (lprec round,
  // docs/light.md). A table row's cell read with its column's name (`540.00` under `Price (EUR)`); a duration answers a date
  // counted from an event (`until what date … covered`: `24 months`).
  const asked = choice.asked;
  const holdsAsked = (c: Candidate) => {
    const text = withoutOwnFigures(asked, c.text);
    return rowHoldsValue(asked, text, c.context?.header ?? '') || (asked.type === 'date' && holdsAnswerType('duration', text));
  };
  if (asked.type && !picked.some((c) => c.source === 'persona' || holdsAsked(c))) return plain(nothingFound(question, persona));
  // A picked sentence about another thing than the question's (lnear round, docs/light.md): it names a sister of the
  // question's name (*Whitcombe House* for *Whitcombe Annex*), or years none of which is the question's (the 2024 budget
  // for 2025), or it is a table row lacking the question's thing where
  // another row of its table says it (*Cat neutering (female)* for a female dog). Whatever chose it (the rules' fallback
  // takes any ranked sentence), it states another thing's fact; with none left, nothing was found.
  const own = picked.filter((c) => c.source === 'persona' || !aboutOther(asked, c, candidates));
  if (own.length === 0) return plain(nothingFound(question, persona));
  // The rules' fallback (lfall round, docs/light.md): a sentence is taken for holding a value of the asked type, whatever
  // it is about. When the passage of every picked sentence (its sentences with their rows, headings and context) names
  // none of the question's item, its words, names or codes (not the generic words of what is asked), the value is another
  // thing's (`an administration fee of €40` for each fine, asked the fee for amending a bill of lading): nothing was found.
  // Read on a passage in the question's language only (the passage's words, a sentence has too few to tell): a passage in
  // the other language says the item in words the question does not use.
  const aboutItem = (c: Candidate) => {
    if (c.source !== 'passage') return true;
    const passage = passageOf(c, candidates);
    return languageOf(passage.join('\n')) !== asked.language || namesItem(asked, passage) !== false;
  };
  // Only where no picked sentence says the question's head (or none is asked): a sentence saying it states what is asked,
  // of the item in other words (*gouttière de bruxisme* for one against teeth grinding).
  const saysHead = (c: Candidate) => asked.head !== null && saysWord(asked.head, `${c.text}\n${c.context?.header ?? ''}`);
  // Nor where a picked sentence shares two of the question's words or more: it is about the question's matter, whose item
  // its passage may leave to the rest of the document (*Water may be left down until 7 am on the day* for a dog's procedure).
  const onMatter = (c: Candidate) => [...stems].filter((s) => c.stems.has(s)).length >= 2;
  if (asked.type && namesItem(asked, []) === false && !own.some((c) => onMatter(c) || saysHead(c) || aboutItem(c))) {
    return plain(nothingFound(question, persona));
  }
  return compose(own, maxTokens);
}


/** The rules' ranking of the candidates for a question (stems: the question's content stems). */
export function choose(candidates: Candidate[], question: string, stems: Set<string> = contentStems(question)): Choice {
  // The question's words in the other language too (the glossary's renderings): an English question on
  // a French document ranks the French sentences that say it.
  const ranked = rank(candidates, new Set([...stems, ...contentStems(words(question).flatMap(translationsOf).join(' '))]), SENTENCE_LENGTH_B);
  // A question asking for a figure, a date, a person, a duration or a place is answered with the best
  // sentences that hold one beside what is asked (its head, codes and figures: lib/language/asked.ts),
  // not with the best-overlapping sentence that holds none.
  const asked = askedOf(question);
  const forms = headForms(asked);
  const none = { previous: '', header: '', section: '', sourceName: '' };
  const answering = (c: Candidate) =>
    c.source !== 'persona' && sentenceAnswers(asked, c.text, c.context ?? none, forms, languageOf(`${c.context?.previous ?? ''} ${c.text}`) === asked.language);
  // A which-question asking no head (`Which electricity tariff is the bakery on?`) is answered by a sentence naming the
  // kind of thing asked (`Tariff | Business Fix 24`), not by the one sharing most of its other words (the customer's name).
  const naming = (c: Candidate) => c.source !== 'persona' && saysWord(asked.kind!, `${c.text}\n${c.context?.header ?? ''}`);
  const strict = asked.type || asked.head ? ranked.filter((r) => answering(r.candidate)) : asked.kind ? ranked.filter((r) => naming(r.candidate)) : ranked;
  // No sentence in the question's language says the head beside the value (one in the other language needs no head, and
  // a table row of place names may read as French): the sentences answering by the question's frame too, in the
  // ranking's order (twelfth round, asked.ts: framed).
  const sameLanguage = (c: Candidate) => languageOf(`${c.context?.previous ?? ''} ${c.text}`) === asked.language;
  const byFrame = (c: Candidate) => c.source !== 'persona' && sentenceAnswers(asked, c.text, c.context ?? none, forms, sameLanguage(c), undefined, true);
  const typed = asked.head && asked.frame && !strict.some((r) => sameLanguage(r.candidate)) ? ranked.filter((r) => byFrame(r.candidate)) : strict;
  // Graded: without a sentence saying the head beside the value, one holding the value (and the codes) beside
  // the question's other words, before any sentence at all (the gate let the passage through on its evidence).
  const valueOnly = { ...asked, head: null };
  const valued = typed.length === 0 && asked.type ? ranked.filter((r) => r.candidate.source !== 'persona' && sentenceAnswers(valueOnly, r.candidate.text, r.candidate.context ?? none, new Set(), languageOf(`${r.candidate.context?.previous ?? ''} ${r.candidate.text}`) === asked.language)) : [];
  // A sentence that answers may share no word with the question when it says the head another way (`livraison`
  // for `livrer`, a paraphrase): the ranking leaves it out, yet it comes before any sentence that does not answer,
  // those saying the head themselves first (not only in their section or header). Only when a type is asked: a
  // head alone (`move`, said as `travel`) is too weak a sign against the sentences sharing the question's words.
  const inRanking = new Set(ranked.map((r) => r.candidate));
  const unranked: Ranked[] =
    typed.length === 0 && asked.type
      ? candidates
          .filter((c) => !inRanking.has(c) && answering(c))
          .map((c) => ({ candidate: c, score: sentenceAnswers(asked, c.text, none, forms, languageOf(c.text) === asked.language) ? 1 : KEEP_RATIO / 2 }))
          .sort((a, b) => b.score - a.score)
      : [];
  const answeringOrValued = typed.length > 0 ? typed : unranked.length > 0 ? unranked : valued.length > 0 ? valued : ranked;
  // A count (`How many kWh of gas`, `combien de sièges`) is answered by the sentences whose figure is said of the counted
  // thing (`4,069 kWh`, `Seats | 240`), when any is, not by one holding another figure beside the same words (lfact round).
  const counted = asked.type === 'amount' ? countedOf(question) : null;
  const tied = counted && answeringOrValued !== ranked ? answeringOrValued.filter((r) => countsThing(counted, r.candidate.text, r.candidate.context?.header ?? '')) : [];
  const graded = tied.length > 0 ? tied : answeringOrValued;
  // Among sentences holding the asked type, those saying what the value is of or for (`How many kWh of gas`: the gas row,
  // not the electricity row), in the sentence or its heading, when any does (lanswer3 round).
  // A value type asked only: `How must X pay Y for the summit booking` asks a manner, which no row's thing decides.
  const focus = asked.type ? focusOf(question) : [];
  // The sentence's own words first; its heading only when no sentence says it (a document's title may name everything).
  const saysFocus = (text: string) => focus.some((w) => saysWord(w, text));
  const inText = focus.length > 0 && graded !== ranked ? graded.filter((r) => saysFocus(r.candidate.text)) : [];
  const focused = inText.length > 0 || focus.length === 0 || graded === ranked ? inText : graded.filter((r) => saysFocus(`${r.candidate.context?.header ?? ''}\n${r.candidate.context?.section ?? ''}`));
  const best = focused.length > 0 ? focused : graded;
  return { ranked, asked, strict, typed, valued, unranked, tied, inText, focused, best };
}

/** Whether a passage sentence is about a sister of the question's name, another period or another row's thing (answerText). */
function aboutOther(asked: Asked, c: Candidate, candidates: Candidate[]): boolean {
  if (asked.names && namesSister(asked.names, c.text)) return true;
  if (namesOtherYears(asked, `${c.text}\n${c.context?.header ?? ''}`)) return true;
  const context = c.context;
  if (!context?.header || languageOf(`${context.previous} ${c.text}`) !== asked.language) return false;
  const others = candidates.filter((o) => o !== c && o.ref === c.ref && o.context?.header === context.header).map((o) => o.text);
  return rowNamesOther(asked, c.text, context, others);
}

/** A passage sentence's whole passage: each of its sentences with its row's header, section, the sentence before it, its document's name and head. */
function passageOf(c: Candidate, candidates: Candidate[]): string[] {
  return candidates
    .filter((o) => o.source === 'passage' && o.ref === c.ref)
    .map((o) => [o.text, o.context?.previous, o.context?.header, o.context?.section, o.context?.sourceName, o.context?.document, o.context?.record].filter(Boolean).join('\n'));
}

/** A sentence as said, for comparing: citations dropped, folded, spaces collapsed. */
const sayingKey = (s: string) => foldText(s.replace(/\s*\[\d+\]/g, '')).replace(/\s+/g, ' ').trim();

function saidKeys(said: string[] | undefined): Set<string> {
  const out = new Set<string>();
  for (const text of said ?? []) for (const s of splitSentences(text)) out.add(sayingKey(s));
  return out;
}

function pick(ranked: Ranked[], max = MAX_SENTENCES, keepRatio = KEEP_RATIO): Candidate[] {
  const best = ranked[0]?.score ?? 0;
  const seen = new Set<string>();
  const out: Candidate[] = [];
  for (const r of ranked) {
    if (out.length === max || r.score < best * keepRatio) break;
    const key = r.candidate.text.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(r.candidate);
  }
  return out;
}

/** Sentences joined while they fit maxTokens; a first sentence too long alone is cut. */
function compose(picked: Candidate[], maxTokens: number | undefined): TextAnswer {
  const parts: string[] = [];
  const refs: number[] = [];
  for (const c of picked) {
    const piece = cited(c);
    if (maxTokens !== undefined && countTextTokens([...parts, piece].join(' ')) > maxTokens) {
      if (parts.length === 0) return { content: truncateToTokens(piece, maxTokens), truncated: true, refs: refOf(c) };
      break;
    }
    parts.push(piece);
    for (const ref of refOf(c)) if (!refs.includes(ref)) refs.push(ref);
  }
  return { content: parts.join(' '), truncated: false, refs };
}

/**
 * Each requested field gets the material sentence (never the persona) matching its name and
 * description best, the question breaking ties; a field nothing matches stays empty. A generic
 * field (`answer`, `summary`...) takes the best sentence for the question.
 */
function fillFields(all: Candidate[], question: string, fields: Record<string, string>): Record<string, string> {
  const candidates = all.filter((c) => c.source !== 'persona');
  const byQuestion = scoresOf(rank(candidates, contentStems(question)));
  const out: Record<string, string> = {};
  for (const [field, description] of Object.entries(fields)) {
    const generic = GENERIC_FIELDS.has(splitIdentifier(field).toLowerCase());
    const byField = generic ? byQuestion : scoresOf(rank(candidates, contentStems(`${splitIdentifier(field)} ${description}`)));
    let best: Candidate | undefined;
    let bestScore = 0;
    for (const c of candidates) {
      const own = byField.get(c) ?? 0;
      if (own === 0) continue;
      const score = 2 * own + (byQuestion.get(c) ?? 0);
      if (score > bestScore) [best, bestScore] = [c, score];
    }
    out[field] = best ? cited(best) : '';
  }
  return out;
}

const GENERIC_FIELDS = new Set(['answer', 'response', 'reply', 'summary', 'text', 'content', 'message', 'reponse', 'resume']);

function scoresOf(ranked: Ranked[]): Map<Candidate, number> {
  return new Map(ranked.map((r) => [r.candidate, r.score]));
}

function smallTalkReply(kind: SmallTalk, question: string, persona: PersonaMaterial | undefined): string {
  const french = looksFrench(question);
  if (kind === 'thanks') return french ? 'Avec plaisir ! Puis-je vous aider pour autre chose ?' : "You're welcome! Anything else I can help with?";
  if (kind === 'farewell') return french ? 'Au revoir !' : 'Goodbye!';
  if (french) {
    const who = persona ? `${persona.name}${persona.role ? `, ${persona.role}` : ''}` : 'le modèle local intégré du service';
    return `Bonjour ! Je suis ${who}. Comment puis-je vous aider ?`;
  }
  const who = persona ? `${persona.name}${persona.role ? `, ${persona.role}` : ''}` : "the service's built-in local model";
  return `Hello! I am ${who}. How can I help you?`;
}

/** The honest answer when nothing in the material matches: what this model is and what it read. */
function nothingFound(question: string, persona: PersonaMaterial | undefined): string {
  const limits = 'answers only from the documents, memories and context given to this conversation';
  const flat = question.replace(/\s+/g, ' ').trim();
  const excerpt = flat.length > EXCERPT_CHARS ? `${flat.slice(0, EXCERPT_CHARS).trimEnd()}…` : flat;
  const found = excerpt ? `I found nothing there about "${excerpt}".` : 'I found nothing there to answer with.';
  if (!persona) return `I am the service's built-in local model, which ${limits}, and ${found}`;
  return `${introOf(persona.name, persona.role)} I am running on the service's built-in local model, which ${limits}, and ${found}`;
}

function cited(c: Candidate): string {
  return c.ref !== undefined ? `${c.text} [${c.ref}]` : c.text;
}

function refOf(c: Candidate): number[] {
  return c.ref !== undefined ? [c.ref] : [];
}

function plain(content: string): TextAnswer {
  return { content, truncated: false, refs: [] };
}

function lastUserText(messages: ChatMessage[]): string {
  return messages.findLast((m) => m.role === 'user')?.content.trim() ?? '';
}

/** `monthlyPrice` and `monthly_price` read as "monthly price". */
function splitIdentifier(name: string): string {
  return name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ');
}
