/**
 * A chat turn's two statements besides admission and metering (issue 28; docs/performance.md, "Agent chat
 * turn"): everything the turn reads before the model in one statement (the workspace's agents, the
 * caller's session and its last messages, the agent's memories, its knowledge and tool links), and everything it
 * writes after in one (the session, the two messages with the answer's certificate and stages, the
 * memories, and the turn's ledger entry sent alongside: one commit at the end of a turn, not two). Both are
 * named prepared statements with bound parameters (`preparedSql`: planned once per connection on PostgreSQL;
 * `sql` on the embedded database); the rows come back as JSON, taken as the plain values the turn uses (the
 * agents' personas, the history's messages, memories, links): no entity is mapped.
 */
import type { Em } from '../../db/types.js';
import { preparedSql } from '../../db/sql.js';
import type { AgentPersona } from '../agents/index.js';
import type { TokenUsage } from '../models/index.js';
import { type SessionMessage, type StoredCitation, type StoredMood, type StoredStage } from './chat.entity.js';
import { CHAT_LIMITS, type MemorySaved } from './chat.schemas.js';

/** Memories read per turn before ranking (the most recent ones). */
export const RECALL_POOL = 200;

export interface StoredMemory {
  key: string;
  value: string;
  salience: number;
}

export interface KnowledgeLink {
  targetKind: string;
  targetId: string;
}

export interface TurnReads {
  /** The workspace's agents as personas (plain values, not entities), oldest first (empty when not asked for). */
  agents: AgentPersona[];
  /** The session exists and is the caller's (false when no session was asked for). */
  sessionFound: boolean;
  /** Its last messages, oldest first, as the fields the turn reads (plain values, not entities; empty for another user's or a missing session). */
  history: HistoryRow[];
  /** The agent's memories of this caller (of every user when the agent's memories are shared), newest first. */
  memories: StoredMemory[];
  /** The agent's knowledge links, oldest first (empty when not asked for). */
  links: KnowledgeLink[];
  /** The ids of the tools linked to the agent, oldest link first (empty when not asked for). */
  toolIds: string[];
}

/** A stored message as a turn reads it: its history and the agent's last mood (`historyOf`, `previousMood`). */
export type HistoryRow = Pick<SessionMessage, 'position' | 'role' | 'content' | 'agentId' | 'mood' | 'stopped'>;

export interface TurnReadQuery {
  workspaceId: string;
  userId: string;
  /** The answering agent ('' when not known yet: its memories and links then read nothing). */
  agentId: string;
  sessionId?: string;
  agents: boolean;
  recall: boolean;
  links: boolean;
  /** Read the agent's tool links (the turn offers tools to a tool-capable model). */
  tools: boolean;
}

const READ = `
with agents as (
  select coalesce(json_agg(json_build_object('id', a.id, 'name', a.name, 'role', a.role, 'personality', a.personality,
                                   'mission', a.mission, 'decisionStyle', a.decision_style, 'systemPrompt', a.system_prompt)
                  order by a.created_at, a.id), '[]'::json) as v
    from agent a where $1::boolean and a.workspace_id = $2::text
), session as (
  select s.id from chat_session s where s.id = $3::text and s.workspace_id = $2::text and s.user_id = $4::text
), history as (
  select coalesce(json_agg(json_build_object('position', h.position, 'role', h.role, 'content', h.content, 'agentId', h.agent_id,
                                             'mood', h.mood, 'stopped', h.stopped) order by h.position), '[]'::json) as v
    from (select m.position, m.role, m.content, m.agent_id, m.mood, m.stopped from chat_message m join session s on s.id = m.session_id
           where m.workspace_id = $2::text order by m.position desc limit ${CHAT_LIMITS.historyMessages}) h
), memories as (
  select coalesce(json_agg(json_build_object('key', m.key, 'value', m.value, 'salience', m.salience)
                           order by m.created_at desc, m.id desc), '[]'::json) as v
    from (select m.key, m.value, m.salience, m.created_at, m.id from agent_memory m
           where $5::boolean and m.workspace_id = $2::text and m.agent_id = $6::text
             and (m.user_id = $4::text or exists (select 1 from agent a where a.id = $6::text and a.workspace_id = $2::text and a.is_shared))
           order by m.created_at desc, m.id desc limit ${RECALL_POOL}) m
), links as (
  select coalesce(json_agg(json_build_object('targetKind', l.target_kind, 'targetId', l.target_id)
                           order by l.created_at, l.id), '[]'::json) as v
    from agent_knowledge_link l where $7::boolean and l.workspace_id = $2::text and l.agent_id = $6::text
), tools as (
  select coalesce(json_agg(t.tool_id order by t.created_at, t.id), '[]'::json) as v
    from agent_tool_link t where $8::boolean and t.workspace_id = $2::text and t.agent_id = $6::text
)
select (select v from agents) as agents, exists (select 1 from session) as session_found, (select v from history) as history,
       (select v from memories) as memories, (select v from links) as links, (select v from tools) as tools`;

/** JSON columns: parsed by the pg driver, a string on a driver that leaves them as text. */
const json = <T>(value: unknown): T => (typeof value === 'string' ? (JSON.parse(value) as T) : (value as T));

/**
 * What the turn reads before the model, in one statement. With `alongside` (the turn's admission with its
 * rates, `svc_rate_admit`: docs/chat.md), that statement runs in the same one, whose value is `carried`.
 */
export async function readTurn(em: Em, q: TurnReadQuery, alongside?: AlongsideStatement): Promise<TurnReads & { carried?: unknown }> {
  const [row] = await preparedSql<Record<string, unknown>>(em, withAlongside(READ, alongside), [
    ...(alongside?.params ?? []),
    q.agents,
    q.workspaceId,
    q.sessionId ?? null,
    q.userId,
    q.recall,
    q.agentId,
    q.links,
    q.tools,
  ]);
  return {
    agents: json<AgentPersona[]>(row?.agents ?? []),
    sessionFound: Boolean(row?.session_found),
    history: json<HistoryRow[]>(row?.history ?? []),
    memories: json<StoredMemory[]>(row?.memories ?? []),
    links: json<KnowledgeLink[]>(row?.links ?? []),
    toolIds: json<string[]>(row?.tools ?? []),
    ...(alongside ? { carried: row?.alongside } : {}),
  };
}

export interface ExchangeWrite {
  workspaceId: string;
  userId: string;
  sessionId: string;
  /** False: the session does not exist yet and is created with this exchange. */
  existing: boolean;
  title: string;
  agent: { id: string; name: string };
  model: string;
  userMessageId: string;
  userMessage: string;
  answerId: string;
  answer: string;
  usage: TokenUsage;
  /** Null on a stopped answer (no mood is derived from half an answer). */
  mood: StoredMood | null;
  /** Null when a stopped turn had not ended its retrieval. */
  citations: StoredCitation[] | null;
  /** The client left while the answer streamed: `answer` is what had streamed (stopped-turn.ts). */
  stopped: boolean;
  proofId: string | null;
  stages: StoredStage[];
  /** Inserted, or written over the agent's memory of this user with the same key. */
  memories: (MemorySaved & { id: string })[];
  now: Date;
}

/*
 * The session's counter gives the two messages their positions (bumped atomically, so concurrent turns in
 * one session interleave exchanges without clashing); a continued session that is gone (deleted meanwhile)
 * updates no row, so nothing else is written and the caller sees no row back. Memories already held under
 * a key are updated, the others inserted (the statement's parts share one snapshot: the insert skips the
 * keys the update returned).
 */
const WRITE = `
with s as (
  update chat_session set message_count = message_count + 2, agent_id = $7::text, updated_at = $9::timestamptz
   where $4::boolean and id = $3::text and workspace_id = $1::text
   returning message_count
), created as (
  insert into chat_session (id, workspace_id, user_id, agent_id, title, message_count, created_at, updated_at)
  select $3::text, $1::text, $2::text, $7::text, $5::text, 2, $9::timestamptz, $9::timestamptz where not $4::boolean
  returning message_count
), counter as (
  select message_count from s union all select message_count from created
), messages as (
  insert into chat_message (id, workspace_id, session_id, position, role, content, agent_id, agent_name, model,
                            prompt_tokens, completion_tokens, total_tokens, mood, citations, proof_id, stages, stopped, created_at)
  select $10::text, $1::text, $3::text, c.message_count - 1, 'user', $11::text, null::text, null::text, null::text, 0, 0, 0,
         null::jsonb, null::jsonb, null::text, null::jsonb, false, $9::timestamptz
    from counter c
  union all
  select $12::text, $1::text, $3::text, c.message_count, 'assistant', $13::text, $7::text, $8::text, $6::text, $14::int, $15::int, $16::int,
         $17::jsonb, $18::jsonb, $19::text, $20::jsonb, $22::boolean, $9::timestamptz
    from counter c
  returning id
), given as (
  select * from jsonb_to_recordset($21::jsonb) as x(id text, key text, value text, type text, provenance text, salience float8)
), updated as (
  update agent_memory m
     set value = g.value, type = g.type, provenance = g.provenance, salience = g.salience, session_id = $3::text, created_at = $9::timestamptz
    from given g
   where exists (select 1 from counter) and m.workspace_id = $1::text and m.agent_id = $7::text and m.user_id = $2::text and m.key = g.key
  returning m.key
), inserted as (
  insert into agent_memory (id, workspace_id, agent_id, user_id, session_id, key, value, type, provenance, salience, created_at)
  select g.id, $1::text, $7::text, $2::text, $3::text, g.key, g.value, g.type, g.provenance, g.salience, $9::timestamptz from given g
   where exists (select 1 from counter) and g.key not in (select key from updated)
  returning id
)
select (select count(*) from messages)::int as messages, (select count(*) from inserted)::int as inserted`;

/** A statement sent in the same statement as the exchange (one implicit transaction): parameters `$1…` are its own. */
export interface AlongsideStatement {
  select: string;
  params: readonly unknown[];
}

/**
 * `text` (one of this file's statements, ending in its select list) with the statement sent alongside as a
 * last column, `alongside`: its parameters first, `text`'s numbered after them; built once per pair of texts.
 */
const texts = new Map<string, Map<string, string>>();
function withAlongside(text: string, alongside: AlongsideStatement | undefined): string {
  if (!alongside) return text;
  let built = texts.get(text);
  if (!built) texts.set(text, (built = new Map()));
  let out = built.get(alongside.select);
  if (out === undefined) {
    const offset = alongside.params.length;
    out = text.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`) + `, (${alongside.select}) as alongside`;
    built.set(alongside.select, out);
  }
  return out;
}

/**
 * Writes the exchange in one statement; false when the continued session no longer exists. With
 * `alongside` (the turn's ledger entry, `recordStatement`), that statement runs in the same one, whose
 * single commit covers both: a session gone meanwhile still records the ledger entry, a failure writes neither.
 */
export async function writeExchange(em: Em, x: ExchangeWrite, alongside?: AlongsideStatement): Promise<boolean> {
  const statement = exchangeStatement(x, alongside);
  return exchangeWritten(await preparedSql(em, statement.select, statement.params));
}

/**
 * The exchange's statement (with `alongside` as `writeExchange` sends it), for a caller that sends it inside a
 * statement of its own (a streamed turn's certificate insert, `ProofChain.submitWith`): a statement of CTEs,
 * safe to send again after a rollback (its ids are unused then). `exchangeWritten` reads its rows.
 */
export function exchangeStatement(x: ExchangeWrite, alongside?: AlongsideStatement): AlongsideStatement {
  return {
    select: withAlongside(WRITE, alongside),
    params: [
      ...(alongside?.params ?? []),
      x.workspaceId,
      x.userId,
      x.sessionId,
      x.existing,
      x.title,
      x.model,
      x.agent.id,
      x.agent.name,
      x.now,
      x.userMessageId,
      x.userMessage,
      x.answerId,
      x.answer,
      x.usage.promptTokens,
      x.usage.completionTokens,
      x.usage.totalTokens,
      x.mood === null ? null : JSON.stringify(x.mood),
      x.citations === null ? null : JSON.stringify(x.citations),
      x.proofId,
      JSON.stringify(x.stages),
      JSON.stringify(x.memories.map((m) => ({ id: m.id, key: m.key, value: m.value, type: m.type, provenance: m.provenance, salience: m.salience }))),
      x.stopped,
    ],
  };
}

/** Whether the exchange's statement wrote the two messages (false: the continued session no longer exists). */
export function exchangeWritten(rows: readonly Record<string, unknown>[]): boolean {
  return Number(rows[0]?.messages ?? 0) === 2;
}
