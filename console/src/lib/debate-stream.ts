/**
 * The live state of a debate followed through `conversationStream`: each turn's text as its tokens
 * arrive (keyed by message id, in the order turns start), then the synthesis, then done or an error.
 */
import type { Passage } from './chat-stream.js';

export interface DebateTurn {
  messageId: string;
  agentName: string;
  round: number;
  isDevilsAdvocate: boolean;
  text: string;
  done: boolean;
  /** The passages the turn cites ([n] in its text). */
  passages: Passage[];
}

export interface DebateSynthesisView {
  verdict: string;
  recommendation: string;
  confidence: number;
  agreements: string[];
  disagreements: { point: string; heldBy: string[] }[];
  content: string;
}

export interface DebateState {
  status: 'running' | 'done' | 'failed' | 'stopped';
  conversationId: string | null;
  topic: string;
  turns: DebateTurn[];
  synthesis: DebateSynthesisView | null;
  error: { message: string; code?: string } | null;
}

export type DebateEvent =
  | { __typename: 'DebateStartEvent'; conversationId: string; topic: string }
  | { __typename: 'DebateTurnStartEvent'; messageId: string; agentName: string; round: number; isDevilsAdvocate: boolean }
  | { __typename: 'DebateTokenEvent'; messageId: string; delta: string }
  | { __typename: 'DebateTurnEndEvent'; message: { id: string; content: string; knowledgeUsed?: Passage[] } }
  | { __typename: 'DebateCitationsEvent'; messageId: string; items?: Passage[] }
  | { __typename: 'DebateSynthesisEvent'; synthesis: DebateSynthesisView }
  | { __typename: 'DebateDoneEvent' }
  | { __typename: 'DebateErrorEvent'; error: string; code?: string | null };

export const startDebate = (topic: string): DebateState => ({
  status: 'running',
  conversationId: null,
  topic,
  turns: [],
  synthesis: null,
  error: null,
});

export function applyDebateEvent(state: DebateState, event: DebateEvent): DebateState {
  if (state.status !== 'running') return state;
  const turn = (id: string, fn: (t: DebateTurn) => DebateTurn) => state.turns.map((t) => (t.messageId === id ? fn(t) : t));
  switch (event.__typename) {
    case 'DebateStartEvent':
      return { ...state, conversationId: event.conversationId, topic: event.topic };
    case 'DebateTurnStartEvent':
      return {
        ...state,
        turns: [
          ...state.turns,
          { messageId: event.messageId, agentName: event.agentName, round: event.round, isDevilsAdvocate: event.isDevilsAdvocate, text: '', done: false, passages: [] },
        ],
      };
    case 'DebateTokenEvent':
      return { ...state, turns: turn(event.messageId, (t) => ({ ...t, text: t.text + event.delta })) };
    case 'DebateTurnEndEvent':
      return {
        ...state,
        turns: turn(event.message.id, (t) => ({
          ...t,
          text: event.message.content,
          done: true,
          passages: event.message.knowledgeUsed?.length ? event.message.knowledgeUsed : t.passages,
        })),
      };
    case 'DebateCitationsEvent':
      return { ...state, turns: turn(event.messageId, (t) => ({ ...t, passages: event.items ?? t.passages })) };
    case 'DebateSynthesisEvent':
      return { ...state, synthesis: event.synthesis };
    case 'DebateDoneEvent':
      return { ...state, status: 'done' };
    case 'DebateErrorEvent':
      return { ...state, status: 'failed', error: { message: event.error, ...(event.code ? { code: event.code } : {}) } };
  }
}

export const stopDebate = (s: DebateState): DebateState => (s.status === 'running' ? { ...s, status: 'stopped' } : s);

export function endDebate(s: DebateState, failure?: { message: string; code?: string }): DebateState {
  if (s.status !== 'running') return s;
  return { ...s, status: 'failed', error: failure ?? { message: 'The debate stopped before it was complete. Try again.' } };
}
