/**
 * What each speaker of a debate reads (docs/debates.md, "What each speaker sees"): its persona, the
 * roster (names, roles, who is the devil's advocate), the topic, what was said before in this
 * conversation, the context blocks and its own knowledge with `[n]` citations. The same facts go to
 * `material` for the built-in local model, which answers from structure rather than prose.
 */
import type { Agent } from '../agents/index.js';
import { contextSection, type RenderedBlock } from '../chat/index.js';
import { passageSection, personaOf, personaSection } from '../chat/index.js';
import type { KnowledgeUsedItem } from '../chat/index.js';
import type { ChatMessage, TurnMaterial } from '../models/index.js';
import type { StoredParticipant } from './conversation.entity.js';
import { DEBATE_LIMITS } from './conversations.schemas.js';

/** One line of the transcript: a follow-up question (no speaker) or a turn. */
export interface SaidBefore {
  round: number;
  kind: 'question' | 'turn' | 'synthesis';
  speaker?: StoredParticipant;
  content: string;
}

export interface TurnPromptParts {
  agent: Agent;
  seat: StoredParticipant;
  participants: StoredParticipant[];
  topic: string;
  round: number;
  /** Rounds of this run (the last round number it will reach). */
  lastRound: number;
  /** The follow-up question this round answers, when it is one. */
  question?: string;
  transcript: SaidBefore[];
  blocks: RenderedBlock[];
  passages: KnowledgeUsedItem[];
}

export function rosterLines(participants: StoredParticipant[], self?: string): string {
  return participants
    .map((p) => `- ${p.name} (${p.role})${p.isDevilsAdvocate ? " — the devil's advocate" : ''}${p.agentId === self ? ' — you' : ''}`)
    .join('\n');
}

export function transcriptText(said: SaidBefore[]): string {
  return said
    .map((m) => {
      if (m.kind === 'question') return `[Round ${m.round}] Question from the user: ${m.content}`;
      if (m.kind === 'synthesis') return `[Round ${m.round}] Synthesis of the moderator: ${m.content}`;
      const who = m.speaker ? `${m.speaker.name}${m.speaker.isDevilsAdvocate ? " (devil's advocate)" : ''}` : 'Unknown';
      return `[Round ${m.round}] ${who}: ${m.content}`;
    })
    .join('\n\n');
}

function instructions(p: TurnPromptParts): string {
  const words = `Keep it under ${DEBATE_LIMITS.turnWords} words, and cite the passages you use with their number, like [1].`;
  if (p.seat.isDevilsAdvocate) {
    return [
      `You are the devil's advocate of this debate (round ${p.round} of ${p.lastRound}).`,
      'Argue against the emerging consensus of the others, and name the weakest point of it in one sentence beginning with "Weakest point:".',
      words,
    ].join(' ');
  }
  return [
    `This is a debate between the participants above, round ${p.round} of ${p.lastRound}.`,
    `Speak in character as ${p.seat.name}: give your position, and answer what the others said when they spoke before you.`,
    words,
  ].join(' ');
}

/** The turn's request: the topic (or the follow-up question) addressed to the speaker. */
export function turnRequest(p: Pick<TurnPromptParts, 'seat' | 'agent' | 'round' | 'topic' | 'question'>): string {
  const subject = p.question ? `The user asks: ${p.question}` : `Topic: ${p.topic}`;
  const angle = p.seat.isDevilsAdvocate
    ? 'what is the weakest point of the consensus so far?'
    : `your position, as ${p.agent.role} (${p.agent.mission})?`;
  return `Round ${p.round}. ${subject}\nYour turn, ${p.seat.name}: ${angle}`;
}

export function turnPrompt(p: TurnPromptParts): { messages: ChatMessage[]; material: TurnMaterial } {
  const system = [
    personaSection(p.agent),
    `The participants of this debate:\n${rosterLines(p.participants, p.seat.agentId)}`,
    `The topic of the debate: ${p.topic}`,
    p.transcript.length > 0 ? `What was said before in this conversation:\n\n${transcriptText(p.transcript)}` : 'Nobody has spoken yet: you open the debate.',
    instructions(p),
    contextSection(p.blocks),
    passageSection(p.passages),
  ]
    .filter((s): s is string => Boolean(s))
    .join('\n\n');
  return {
    messages: [
      { role: 'system', content: system },
      { role: 'user', content: turnRequest(p) },
    ],
    material: {
      persona: personaOf(p.agent),
      // The local model answers from its own knowledge and the context; the devil's advocate also reads
      // the others' turns, which it answers.
      contextBlocks: [
        ...p.blocks.map((b) => ({ heading: b.heading, text: b.text, high: b.high })),
        ...(p.seat.isDevilsAdvocate
          ? p.transcript.filter((m) => m.kind === 'turn' && m.speaker && !m.speaker.isDevilsAdvocate).map((m) => ({ heading: `${m.speaker!.name}, round ${m.round}`, text: m.content, high: false }))
          : []),
      ],
      passages: p.passages.map((x) => ({ ref: x.ref, text: x.text, sourceName: x.sourceName, section: x.section })),
      // What was said gives way to what was not: a debater says what the others have not; the devil's
      // advocate, who answers the others' words, avoids only its own.
      alreadySaid: p.transcript
        .filter((m) => m.kind === 'turn' && m.speaker && (!p.seat.isDevilsAdvocate || m.speaker.agentId === p.seat.agentId))
        .map((m) => m.content),
    },
  };
}

/** The fields the synthesis is asked for (a JSON object), with what each holds. */
export const SYNTHESIS_FIELDS = {
  agreements: 'points of agreement between the debaters (a list of short sentences)',
  disagreements: 'open disagreements (a list of objects { point, heldBy: [names of the debaters who hold it] })',
  recommendation: 'the recommendation that follows from the debate (one or two sentences)',
  confidence: 'confidence in the recommendation, a number from 0 to 1',
} as const;

export function synthesisPrompt(p: { participants: StoredParticipant[]; topic: string; transcript: SaidBefore[]; round: number }): {
  messages: ChatMessage[];
  material: TurnMaterial;
} {
  const fields = Object.entries(SYNTHESIS_FIELDS).map(([k, v]) => `- "${k}": ${v}`);
  const system = [
    'You are the neutral moderator of a debate. Write its synthesis from what was said, without adding opinions of your own. Name the debaters by name: say who holds each point.',
    `The participants:\n${rosterLines(p.participants)}`,
    `The topic: ${p.topic}`,
    `The debate:\n\n${transcriptText(p.transcript)}`,
    `Answer with one JSON object with these fields:\n${fields.join('\n')}`,
  ].join('\n\n');
  return {
    messages: [
      { role: 'system', content: system },
      { role: 'user', content: `Synthesis of round ${p.round}: ${p.topic}` },
    ],
    material: {
      contextBlocks: p.transcript
        .filter((m) => m.kind === 'turn' && m.speaker)
        .map((m) => ({ heading: `${m.speaker!.name}, round ${m.round}`, text: m.content, high: false })),
      jsonFields: { ...SYNTHESIS_FIELDS },
    },
  };
}
