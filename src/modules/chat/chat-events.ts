import type { ChatTurnDone, KnowledgeUsed, Mood } from './chat.schemas.js';

/** Named steps of a turn, reported as `stage` events in this order (each only when it runs). */
export const TURN_STAGES = ['planning', 'prepare', 'retrieval', 'consultation', 'reflection', 'generation', 'extraction', 'save'] as const;
export type TurnStage = (typeof TURN_STAGES)[number];

export interface ChatErrorPayload {
  status: number;
  error: string;
  code?: string;
  [detail: string]: unknown;
}

/** SPEC, Chat stream events: `data: {"type": <kind>, "data": <payload>}`. */
export type ChatStreamEvent =
  | { type: 'stage'; data: { name: TurnStage; phase: 'start' } | { name: TurnStage; phase: 'end'; ms: number } }
  | { type: 'knowledge'; data: KnowledgeUsed[] }
  | { type: 'tool_call'; data: { toolName: string; arguments: unknown } }
  | { type: 'tool_result'; data: { toolName: string; arguments: unknown; result: unknown; success: boolean; durationMs: number } }
  | { type: 'token'; data: { delta: string } }
  | { type: 'mood'; data: Mood }
  | { type: 'done'; data: ChatTurnDone }
  | { type: 'error'; data: ChatErrorPayload };

export type ChatStreamEventType = ChatStreamEvent['type'];

export type EventSink = (event: ChatStreamEvent) => void;
