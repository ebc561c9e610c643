import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useClient, useQuery } from 'urql';
import { ConfirmDelete } from '../components/confirm-delete.js';
import { toastError, toastSuccess } from '../components/toasts.js';
import { Empty, ErrorNote, FieldError, FormFailure, useFieldFailure } from '../components/ui.js';
import { asError } from '../lib/errors.js';
import { graphql } from '../graphql.js';
import { applyChatEvent, endTurn, startTurn, stopTurn, type Passage, type TurnState } from '../lib/chat-stream.js';
import { PassageDialog } from '../components/cited.js';
import { ListShell } from '../components/list-shell.js';
import { AnswerMarkdown } from '../components/markdown.js';
import { formatTime } from '../lib/format.js';
import { hrefOf } from '../lib/routes.js';
import { Link, navigate, replaceRoute } from '../router.js';
import { useStream } from '../lib/use-stream.js';

/** The form's fields in words, by their API names (a refusal names the field as the form does). */
const CHAT_LABELS = { message: 'Message', agentId: 'Agent' } as const;

/** The question's box: Enter sends, Shift+Enter a new line; a refusal of the message is said under it. */
function MessageBox({ id, value, onChange, onEnter }: { id: string; value: string; onChange: (v: string) => void; onEnter: (e: FormEvent) => void }) {
  const refusal = useFieldFailure<HTMLTextAreaElement>('message');
  return (
    <>
      <label htmlFor={id}>Message</label>
      <textarea
        id={id}
        ref={refusal.ref}
        rows={3}
        value={value}
        aria-invalid={refusal.message ? true : undefined}
        aria-describedby={refusal.message ? refusal.errorId : undefined}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey) onEnter(e);
        }}
        placeholder="Ask a question (Enter sends, Shift+Enter for a new line)"
      />
      <FieldError id={refusal.errorId} message={refusal.message} />
    </>
  );
}

const ChatSide = graphql(`
  query ChatSide {
    agents { id name isPoste }
    chatSessions(limit: 30) { id title updatedAt agentId }
  }
`);

const SessionQuery = graphql(`
  query ChatSessionView($id: ID!) {
    chatSession(id: $id) {
      id title agentId
      messages {
        id role content stopped agentName mood { emotion intensity }
        proofId tokenUsage { totalTokens } stages { name ms }
        knowledgeUsed { ref sourceName chunkPreview page section dossierName }
      }
    }
  }
`);

const NewestSessions = graphql(`
  query NewestSessions {
    chatSessions(limit: 5) { id title }
  }
`);

const RenameSession = graphql(`
  mutation RenameChatSession($id: ID!, $title: String!) {
    renameChatSession(id: $id, title: $title) { id title }
  }
`);

const DeleteSession = graphql(`
  mutation DeleteChatSession($id: ID!) { deleteChatSession(id: $id) }
`);

export const ChatStream = graphql(`
  subscription ChatStream($agentId: ID, $input: ChatInput!) {
    chatStream(agentId: $agentId, input: $input) {
      __typename
      ... on ChatTokenEvent { delta }
      ... on ChatStageEvent { name phase ms }
      ... on ChatMoodEvent { mood { name emotion intensity } }
      ... on ChatToolCallEvent { toolName }
      ... on ChatToolResultEvent { toolName success durationMs }
      ... on ChatKnowledgeEvent { items { ref sourceName chunkPreview page section dossierName } }
      ... on ChatDoneEvent {
        result {
          sessionId agentName content proofId
          tokenUsage { totalTokens }
          knowledgeUsed { ref sourceName chunkPreview page section dossierName }
        }
      }
      ... on ChatErrorEvent { error code }
    }
  }
`);

interface Turn {
  question: string;
  state: TurnState;
}

const AUTO = '';

/** The title the service gives a new session: the first message on one line, cut at 80 characters. */
export function sessionTitleOf(message: string): string {
  const flat = message.replace(/\s+/g, ' ').trim();
  return flat.length > 80 ? `${flat.slice(0, 79).trimEnd()}…` : flat;
}

export default function ChatScreen({ id }: { id?: string }) {
  const stream = useStream(ChatStream);
  const [side, refetchSide] = useQuery({ query: ChatSide });
  const [sessionId, setSessionId] = useState<string | undefined>(id);
  // The session this screen's first turn created: the address moves to it, but its turns are already on screen.
  const adopted = useRef<string | undefined>(undefined);
  const reading = id !== undefined && id !== adopted.current;
  const [history, refetchHistory] = useQuery({ query: SessionQuery, variables: { id: id ?? '' }, pause: !reading });
  const client = useClient();
  const asked = useRef<{ question: string; known: Set<string> } | null>(null);
  const [adopting, setAdopting] = useState(false);
  const [agentId, setAgentId] = useState<string>(() => new URLSearchParams(location.search).get('agent') ?? AUTO);
  const [message, setMessage] = useState('');
  /** The service refused the question before answering (too long, no allowance left…): said under the box, which gets it back. */
  const [refusal, setRefusal] = useState<unknown>(null);
  const [turns, setTurns] = useState<Turn[]>([]);
  const [passage, setPassage] = useState<Passage | null>(null);
  const agentSelect = useId();
  const messageId = useId();

  // Opening another session (or New chat) starts afresh and cancels a stream in flight; leaving the screen does too.
  useEffect(() => {
    if (id !== undefined && id === adopted.current) return;
    adopted.current = undefined;
    stream.stop();
    setSessionId(id);
    setTurns([]);
  }, [id]);
  useEffect(() => {
    const agent = history.data?.chatSession.agentId;
    if (agent) setAgentId(agent);
  }, [history.data]);

  const streaming = turns.some((t) => t.state.status === 'streaming');
  const update = (index: number, fn: (s: TurnState) => TurnState) =>
    setTurns((all) => all.map((t, i) => (i === index ? { ...t, state: fn(t.state) } : t)));

  const send = (e: FormEvent) => {
    e.preventDefault();
    const question = message.trim();
    if (!question || streaming || adopting) return;
    setMessage('');
    ask(question);
  };

  const ask = (question: string) => {
    const index = turns.length;
    let answered = false;
    setRefusal(null);
    asked.current = { question, known: new Set(side.data?.chatSessions.map((s) => s.id) ?? []) };
    setTurns((all) => [...all, { question, state: startTurn() }]);
    const variables = { ...(agentId ? { agentId } : {}), input: { message: question, ...(sessionId ? { sessionId } : {}) } };
    stream.start(variables, {
      next: ({ chatStream: event }) => {
        answered = true;
        update(index, (s) => applyChatEvent(s, event));
        if (event.__typename === 'ChatDoneEvent' && event.result.sessionId !== sessionId) {
          adopted.current = event.result.sessionId;
          setSessionId(event.result.sessionId);
          replaceRoute(hrefOf('chat', event.result.sessionId));
          refetchSide({ requestPolicy: 'network-only' });
        }
      },
      error: (failure) => {
        if (answered) return update(index, (s) => endTurn(s, failure));
        // Refused before any answer: the question goes back into the box, to be changed and sent again.
        setTurns((all) => all.filter((_, i) => i !== index));
        setMessage(question);
        setRefusal(asError(failure));
      },
      complete: () => update(index, (s) => endTurn(s)),
    });
  };

  const stop = () => {
    stream.stop();
    setTurns((all) => all.map((t) => ({ ...t, state: stopTurn(t.state) })));
    if (!sessionId && asked.current) void adoptStopped(asked.current);
  };

  // A turn stopped in a new chat is kept in a new session (docs/chat.md, "Disconnects"), but no `done`
  // event names it: it is the session that was not there before the turn and bears the question's
  // title. The next message waits for it (a few reads), so it continues that session.
  const adoptStopped = async (turn: { question: string; known: Set<string> }) => {
    setAdopting(true);
    try {
      const title = sessionTitleOf(turn.question);
      for (let attempt = 0; attempt < 12; attempt++) {
        const res = await client.query(NewestSessions, {}, { requestPolicy: 'network-only' }).toPromise();
        const found = res.data?.chatSessions.find((s) => !turn.known.has(s.id) && s.title === title);
        if (found) {
          adopted.current = found.id;
          setSessionId(found.id);
          replaceRoute(hrefOf('chat', found.id));
          refetchSide({ requestPolicy: 'network-only' });
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    } finally {
      setAdopting(false);
    }
  };

  const renamed = (id: string) => {
    refetchSide({ requestPolicy: 'network-only' });
    if (id === sessionId) refetchHistory({ requestPolicy: 'network-only' });
  };
  const deleted = (id: string) => {
    refetchSide({ requestPolicy: 'network-only' });
    if (id === sessionId) navigate(hrefOf('chat'));
  };

  const agents = side.data?.agents.filter((a) => !a.isPoste) ?? [];
  const shown = reading && history.data?.chatSession.id === id ? history.data.chatSession : null;
  const past = shown?.messages ?? [];
  return (
    <section aria-labelledby="chat-title" className="chat">
      <aside aria-label="Sessions">
        <div className="toolbar">
          <h2 style={{ margin: 0 }}>Sessions</h2>
          <Link href={hrefOf('chat')} className="button-link">
            New chat
          </Link>
        </div>
        <ListShell
          label="Sessions"
          items={side.data?.chatSessions}
          error={side.error}
          searchText={(s) => s.title ?? ''}
          empty={<p className="hint">No sessions yet: your first message starts one.</p>}
        >
          {(list) => (
            <ul className="list">
              {list.map((s) => (
                <SessionItem key={s.id} session={s} current={s.id === sessionId} onRenamed={renamed} onDeleted={deleted} />
              ))}
            </ul>
          )}
        </ListShell>
      </aside>
      <div>
        <h1 id="chat-title">{shown?.title || 'Chat'}</h1>
        <div className="field">
          <label htmlFor={agentSelect}>Agent</label>
          <select id={agentSelect} value={agentId} onChange={(e) => setAgentId(e.target.value)} disabled={streaming}>
            <option value={AUTO}>Auto-pick the best agent</option>
            {agents.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </select>
        </div>
        {side.data && agents.length === 0 ? (
          <Empty title="No agent to chat with">
            Create an agent first under <Link href={hrefOf('agents')}>Agents</Link>.
          </Empty>
        ) : null}
        <ErrorNote error={history.error} />
        <p className="sr-only" role="status">
          {streaming ? 'The agent is answering…' : turns.length ? 'The answer is complete.' : ''}
        </p>
        <div className="messages">
          {past.map((m) =>
            m.role === 'user' ? (
              <div key={m.id} className="msg user">
                <span className="who-said">You</span>
                {m.content}
              </div>
            ) : (
              <div key={m.id} className="msg" data-testid="stored-answer">
                <span className="who-said">{m.agentName ?? 'Agent'}</span>
                <AnswerMarkdown text={m.content} passages={m.knowledgeUsed ?? []} onCite={setPassage} />
                <div className="turn-meta">
                  {m.stopped ? <span className="badge">stopped</span> : null}
                  {m.mood ? <span className="badge">mood: {m.mood.emotion}</span> : null}
                  {m.tokenUsage ? <span>{m.tokenUsage.totalTokens} tokens</span> : null}
                  {m.proofId ? <ProofLink id={m.proofId} /> : null}
                </div>
                <div className="answer-actions">
                  <CopyButton text={m.content} />
                </div>
                {m.stages?.length ? (
                  <details className="turn-meta">
                    <summary>Stages</summary>
                    {m.stages.map((st) => (
                      <span key={st.name} className="badge">
                        {st.name}: {st.ms} ms
                      </span>
                    ))}
                  </details>
                ) : null}
              </div>
            ),
          )}
          {turns.map((t, i) => (
            <TurnView
              key={i}
              turn={t}
              onCite={setPassage}
              onStop={stop}
              onRegenerate={i === turns.length - 1 && !streaming ? () => ask(t.question) : undefined}
            />
          ))}
        </div>
        <FormFailure error={refusal} labels={CHAT_LABELS}>
          <form onSubmit={send} className="field">
            <MessageBox id={messageId} value={message} onChange={setMessage} onEnter={send} />
            <ErrorNote />
            <div className="row">
              <button type="submit" className="primary" disabled={streaming || adopting || !message.trim()}>
                Send
              </button>
            </div>
          </form>
        </FormFailure>
      </div>
      <PassageDialog passage={passage} onClose={() => setPassage(null)} />
    </section>
  );
}

interface SessionRow {
  id: string;
  title: string;
  updatedAt: string;
}

/** A session in the side list: open it, rename it in place, delete it (confirmed in the page). */
function SessionItem({ session, current, onRenamed, onDeleted }: { session: SessionRow; current: boolean; onRenamed: (id: string) => void; onDeleted: (id: string) => void }) {
  const client = useClient();
  const [editing, setEditing] = useState(false);
  const [title, setTitle] = useState(session.title);
  const [saving, setSaving] = useState(false);
  const renameButton = useRef<HTMLButtonElement>(null);
  const inputId = useId();
  const name = session.title || 'Untitled';

  const close = () => {
    setEditing(false);
    requestAnimationFrame(() => renameButton.current?.focus());
  };
  const save = async (e: FormEvent) => {
    e.preventDefault();
    setSaving(true);
    const res = await client.mutation(RenameSession, { id: session.id, title }).toPromise();
    setSaving(false);
    if (res.error) return toastError(res.error, 'The session was not renamed');
    toastSuccess(`Session renamed to “${res.data!.renameChatSession.title}”`);
    onRenamed(session.id);
    close();
  };
  const remove = async () => {
    const res = await client.mutation(DeleteSession, { id: session.id }).toPromise();
    if (res.error) throw res.error;
    toastSuccess(`Session “${name}” deleted`);
    onDeleted(session.id);
  };

  return (
    <li>
      {editing ? (
        <form onSubmit={(e) => void save(e)} className="session-rename">
          <label htmlFor={inputId}>New title for “{name}”</label>
          <input
            id={inputId}
            value={title}
            maxLength={80}
            autoFocus
            onChange={(e) => setTitle(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape') close();
            }}
          />
          <div className="row">
            <button type="submit" className="primary" disabled={saving || !title.trim()}>
              Save
            </button>
            <button type="button" onClick={close} disabled={saving}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <>
          <Link href={hrefOf('chat', session.id)} aria-current={current ? 'page' : undefined}>
            {name}
          </Link>
          <time className="session-date" dateTime={session.updatedAt}>
            {formatTime(session.updatedAt)}
          </time>
          <div className="row session-actions">
            <button
              type="button"
              ref={renameButton}
              aria-label={`Rename session ${name}`}
              onClick={() => {
                setTitle(session.title);
                setEditing(true);
              }}
            >
              Rename
            </button>
            <ConfirmDelete what={`the session “${name}”`} label={`Delete session ${name}`} consequence="Its messages are deleted too." onConfirm={remove} />
          </div>
        </>
      )}
    </li>
  );
}

function TurnView({ turn, onCite, onStop, onRegenerate }: { turn: Turn; onCite: (p: Passage) => void; onStop: () => void; onRegenerate?: () => void }) {
  const s = turn.state;
  return (
    <>
      <div className="msg user">
        <span className="who-said">You</span>
        {turn.question}
      </div>
      <div className="msg" data-testid="live-answer" aria-busy={s.status === 'streaming'}>
        <span className="who-said">{s.result?.agentName ?? s.mood?.name ?? 'Agent'}</span>
        <AnswerMarkdown text={s.text} passages={s.passages} onCite={onCite} />
        {s.status === 'streaming' && !s.text ? <span className="hint">Thinking…</span> : null}
        {s.stages.length || s.toolCalls.length ? (
          // Stages change many times a turn: shown only on request, and never in a live region.
          <details className="turn-meta">
            <summary>Stages</summary>
            {s.stages.map((st) => (
              <span key={st.name} className="badge" title={st.ms != null ? `${st.ms} ms` : undefined}>
                {st.name}: {st.phase}
              </span>
            ))}
            {s.toolCalls.map((c, i) => (
              <span key={i} className="badge">
                tool {c.toolName}: {c.done ? (c.success ? `ok in ${c.durationMs} ms` : 'failed') : 'running'}
              </span>
            ))}
          </details>
        ) : null}
        {s.error ? <ErrorNote error={{ graphQLErrors: [{ message: s.error.message, extensions: { code: s.error.code } }] }} /> : null}
        <div className="answer-actions">
          {s.status === 'streaming' ? (
            <button type="button" onClick={onStop}>
              Stop
            </button>
          ) : (
            <CopyButton text={s.text} />
          )}
          {onRegenerate ? (
            <button type="button" onClick={onRegenerate}>
              Regenerate
            </button>
          ) : null}
        </div>
        <div className="turn-meta">
          {s.mood ? (
            <span className="badge">
              mood: {s.mood.emotion} ({Math.round(s.mood.intensity * 100)}%)
            </span>
          ) : null}
          {s.status === 'stopped' ? <span className="badge">stopped</span> : null}
          {s.result?.tokenUsage ? <span>{s.result.tokenUsage.totalTokens} tokens</span> : null}
          {s.result?.proofId ? <ProofLink id={s.result.proofId} /> : null}
        </div>
      </div>
    </>
  );
}

function ProofLink({ id }: { id: string }) {
  return (
    <Link href={hrefOf('proofs', id)} aria-label={`Proof ${id}`}>
      proof {id}
    </Link>
  );
}

function CopyButton({ text }: { text: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <button type="button" onClick={() => void copy()} aria-label="Copy the answer">
      {copied ? 'Copied' : 'Copy'}
    </button>
  );
}
