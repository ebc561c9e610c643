/**
 * The live state of one streamed chat turn, folded from the `chatStream` subscription's events in
 * arrival order: tokens appended as they come, stages, mood, tool calls, cited passages, then the
 * final result or an error. Pure, so the screen and the unit tests share it.
 */
export interface Passage {
  ref: number;
  sourceName: string;
  chunkPreview: string;
  page: number;
  section: string;
  dossierName?: string | null;
}

export interface StageView {
  name: string;
  phase: string;
  ms?: number | null;
}

export interface ToolCallView {
  toolName: string;
  done: boolean;
  success?: boolean;
  durationMs?: number;
}

export interface MoodView {
  name: string;
  emotion: string;
  intensity: number;
}

export interface TurnResultView {
  sessionId: string;
  agentName: string;
  content: string;
  knowledgeUsed: Passage[];
  proofId?: string | null;
  tokenUsage?: { totalTokens: number } | null;
}

export interface TurnState {
  status: 'streaming' | 'done' | 'failed' | 'stopped';
  text: string;
  /** How many token events arrived (the screen shows the text; tests count the pieces). */
  tokens: number;
  stages: StageView[];
  mood: MoodView | null;
  toolCalls: ToolCallView[];
  passages: Passage[];
  result: TurnResultView | null;
  error: { message: string; code?: string } | null;
}

export type ChatEvent =
  | { __typename: 'ChatTokenEvent'; delta: string }
  | { __typename: 'ChatStageEvent'; name: string; phase: string; ms?: number | null }
  | { __typename: 'ChatMoodEvent'; mood: MoodView }
  | { __typename: 'ChatToolCallEvent'; toolName: string }
  | { __typename: 'ChatToolResultEvent'; toolName: string; success: boolean; durationMs: number }
  | { __typename: 'ChatKnowledgeEvent'; items: Passage[] }
  | { __typename: 'ChatDoneEvent'; result: TurnResultView }
  | { __typename: 'ChatErrorEvent'; error: string; code?: string | null };

export const startTurn = (): TurnState => ({
  status: 'streaming',
  text: '',
  tokens: 0,
  stages: [],
  mood: null,
  toolCalls: [],
  passages: [],
  result: null,
  error: null,
});

export function applyChatEvent(state: TurnState, event: ChatEvent): TurnState {
  if (state.status !== 'streaming') return state;
  switch (event.__typename) {
    case 'ChatTokenEvent':
      return { ...state, text: state.text + event.delta, tokens: state.tokens + 1 };
    case 'ChatStageEvent': {
      const stage = { name: event.name, phase: event.phase, ms: event.ms ?? null };
      const i = state.stages.findIndex((s) => s.name === event.name);
      const stages = i < 0 ? [...state.stages, stage] : state.stages.map((s, j) => (j === i ? stage : s));
      return { ...state, stages };
    }
    case 'ChatMoodEvent':
      return { ...state, mood: { name: event.mood.name, emotion: event.mood.emotion, intensity: event.mood.intensity } };
    case 'ChatToolCallEvent':
      return { ...state, toolCalls: [...state.toolCalls, { toolName: event.toolName, done: false }] };
    case 'ChatToolResultEvent': {
      const i = state.toolCalls.findIndex((c) => c.toolName === event.toolName && !c.done);
      const done = { toolName: event.toolName, done: true, success: event.success, durationMs: event.durationMs };
      const toolCalls = i < 0 ? [...state.toolCalls, done] : state.toolCalls.map((c, j) => (j === i ? done : c));
      return { ...state, toolCalls };
    }
    case 'ChatKnowledgeEvent':
      return { ...state, passages: event.items };
    case 'ChatDoneEvent':
      return {
        ...state,
        status: 'done',
        // The final text is the service's (masking may have changed what streamed).
        text: event.result.content,
        passages: event.result.knowledgeUsed.length ? event.result.knowledgeUsed : state.passages,
        result: event.result,
      };
    case 'ChatErrorEvent':
      return { ...state, status: 'failed', error: { message: event.error, ...(event.code ? { code: event.code } : {}) } };
  }
}

/** The person pressed stop: the subscription is cancelled and what arrived is kept. */
export const stopTurn = (state: TurnState): TurnState => (state.status === 'streaming' ? { ...state, status: 'stopped' } : state);

/** The stream ended (or failed on the wire) without a done or error event. */
export function endTurn(state: TurnState, failure?: { message: string; code?: string }): TurnState {
  if (state.status !== 'streaming') return state;
  return { ...state, status: 'failed', error: failure ?? { message: 'The answer stopped before it was complete. Try again.' } };
}
