import { useRef, useState, type FormEvent } from 'react';
import { useQuery } from 'urql';
import { CitedText, PassageDialog } from '../components/cited.js';
import { ChoiceGroup, Empty, ErrorNote, Field, FormFailure, Status } from '../components/ui.js';
import type { Passage } from '../lib/chat-stream.js';
import { graphql } from '../graphql.js';
import { asError } from '../lib/errors.js';
import { applyDebateEvent, endDebate, startDebate, stopDebate, type DebateState, type DebateSynthesisView } from '../lib/debate-stream.js';
import { formatTime } from '../lib/format.js';
import { useStream } from '../lib/use-stream.js';

const DebatesQuery = graphql(`
  query Debates {
    agents { id name isPoste isDevilsAdvocate }
    conversations(limit: 20) {
      id topic status createdAt rounds
      participants { agentId name isDevilsAdvocate }
      messages { id kind round agentName isDevilsAdvocate content knowledgeUsed { ref sourceName chunkPreview page section dossierName } }
      synthesis { verdict recommendation confidence agreements content disagreements { point heldBy } }
    }
  }
`);

const DebateStream = graphql(`
  subscription DebateStream($input: StartConversationInput!) {
    conversationStream(input: $input) {
      __typename
      ... on DebateStartEvent { conversationId topic }
      ... on DebateTurnStartEvent { messageId agentName round isDevilsAdvocate }
      ... on DebateTokenEvent { messageId delta }
      ... on DebateTurnEndEvent { message { id content knowledgeUsed { ref sourceName chunkPreview page section dossierName } } }
      ... on DebateCitationsEvent { messageId items { ref sourceName chunkPreview page section dossierName } }
      ... on DebateSynthesisEvent { synthesis { verdict recommendation confidence agreements content disagreements { point heldBy } } }
      ... on DebateDoneEvent { type }
      ... on DebateErrorEvent { error code }
    }
  }
`);

/** The form's fields in words, by their API names (a refusal names the field as the form does). */
const DEBATE_LABELS = { topic: 'Topic', agentIds: 'Debaters', rounds: 'Rounds' } as const;

export default function DebatesScreen() {
  const stream = useStream(DebateStream);
  const [{ data, error }, refetch] = useQuery({ query: DebatesQuery });
  const [topic, setTopic] = useState('');
  const [chosen, setChosen] = useState<string[]>([]);
  const [rounds, setRounds] = useState('1');
  const [live, setLive] = useState<DebateState | null>(null);
  /** The service refused to start the debate (before its first event): said on the form, which keeps what was typed. */
  const [refusal, setRefusal] = useState<unknown>(null);
  const started = useRef(false);
  const [passage, setPassage] = useState<Passage | null>(null);
  const conversational = data?.agents.filter((a) => !a.isPoste) ?? [];
  // The devil's advocate seat is the debate's to fill (choosing one as a debater is refused): offered only as explained below.
  const agents = conversational.filter((a) => !a.isDevilsAdvocate);
  const devil = conversational.find((a) => a.isDevilsAdvocate);
  // A disagreement's holders arrive as agent ids: named from the debates' rosters and the workspace's agents.
  const names = new Map<string, string>([
    ...(data?.agents ?? []).map((a) => [a.id, a.name] as const),
    ...(data?.conversations ?? []).flatMap((c) => c.participants.map((p) => [p.agentId, p.name] as const)),
  ]);
  const nameOf = (id: string) => names.get(id) ?? 'an agent';
  const running = live?.status === 'running';

  const start = (e: FormEvent) => {
    e.preventDefault();
    if (running) return;
    setRefusal(null);
    started.current = false;
    setLive(startDebate(topic.trim()));
    // What was typed goes as it is (empty rounds: the service's default); the service judges it.
    const input = { topic: topic.trim(), ...(rounds.trim() ? { rounds: Number(rounds) } : {}), ...(chosen.length ? { agentIds: chosen } : {}) };
    stream.start(
      { input },
      {
        next: ({ conversationStream: event }) => {
          started.current = true;
          setLive((s) => s && applyDebateEvent(s, event));
          if (event.__typename === 'DebateDoneEvent') refetch({ requestPolicy: 'network-only' });
        },
        error: (failure) => {
          if (started.current) return setLive((s) => s && endDebate(s, failure));
          setRefusal(asError(failure));
          setLive(null);
        },
        complete: () => setLive((s) => s && endDebate(s)),
      },
    );
  };
  const stop = () => {
    stream.stop();
    setLive((s) => s && stopDebate(s));
  };

  return (
    <section aria-labelledby="debates-title">
      <h1 id="debates-title">Debates</h1>
      <ErrorNote error={error} />
      <div className="split">
        <FormFailure error={refusal} labels={DEBATE_LABELS}>
          <form className="card" onSubmit={start} aria-labelledby="new-debate">
            <h2 id="new-debate" style={{ marginTop: 0 }}>
              New debate
            </h2>
            <Field label="Topic" name="topic" multiline value={topic} onChange={setTopic} required />
            <ChoiceGroup name="agentIds" legend="Debaters (none chosen: the service seats them)">
              {agents.length === 0 ? <p className="hint">Create agents first: a debate needs at least two.</p> : null}
              {agents.map((a) => (
                <label key={a.id} className="row">
                  <input type="checkbox" checked={chosen.includes(a.id)} onChange={(e) => setChosen((l) => (e.target.checked ? [...l, a.id] : l.filter((x) => x !== a.id)))} />{' '}
                  {a.name}
                </label>
              ))}
            </ChoiceGroup>
            <p className="hint" data-testid="devils-advocate-explained">
              <strong>The devil&apos;s advocate</strong> speaks last in every round: it argues against the view the others are
              converging on and names its weakest point, so the synthesis weighs the strongest objection.{' '}
              {devil ? (
                <>
                  This workspace&apos;s devil&apos;s advocate, <em>{devil.name}</em>, takes that seat in every debate; you do not choose it.
                </>
              ) : (
                <>You do not choose it: the first debate creates one (“Devil&apos;s Advocate”, an agent you can then edit under Agents).</>
              )}
            </p>
            <Field label="Rounds" name="rounds" type="number" min={1} value={rounds} onChange={setRounds} />
            <ErrorNote />
            <div className="row">
              <button type="submit" className="primary" disabled={running}>
                Start debate
              </button>
              <button type="button" onClick={stop} disabled={!running}>
                Stop
              </button>
            </div>
          </form>
        </FormFailure>
        <div>
          {live ? <LiveDebate state={live} onCite={setPassage} nameOf={nameOf} /> : null}
          <h2>Past debates</h2>
          {data && data.conversations.length === 0 ? (
            <Empty title="No debates yet">Ask a question with several sides: the agents argue it in rounds and a synthesis closes it.</Empty>
          ) : (
            <ul className="list">
              {data?.conversations.map((c) => (
                <li key={c.id}>
                  <strong>{c.topic}</strong> <Status value={c.status} /> <span className="hint">{formatTime(c.createdAt)}</span>
                  <p className="hint">{c.participants.map((p) => p.name).join(', ')}</p>
                  {c.synthesis ? <SynthesisView synthesis={c.synthesis} nameOf={nameOf} /> : null}
                  {c.messages.some((m) => m.kind === 'turn') ? (
                    <details>
                      <summary>Turns ({c.messages.filter((m) => m.kind === 'turn').length})</summary>
                      <div className="messages">
                        {c.messages
                          .filter((m) => m.kind === 'turn')
                          .map((m) => (
                            <div key={m.id} className="msg" data-testid="past-debate-turn">
                              <span className="who-said">
                                {m.agentName ?? 'Agent'} · round {m.round}
                                {m.isDevilsAdvocate ? " · devil's advocate" : ''}
                              </span>
                              <CitedText text={m.content} passages={m.knowledgeUsed} onCite={setPassage} />
                            </div>
                          ))}
                      </div>
                    </details>
                  ) : null}
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
      <PassageDialog passage={passage} onClose={() => setPassage(null)} />
    </section>
  );
}

function LiveDebate({ state, onCite, nameOf }: { state: DebateState; onCite: (p: Passage) => void; nameOf: (id: string) => string }) {
  return (
    <article aria-labelledby="live-debate" aria-busy={state.status === 'running'}>
      <h2 id="live-debate">{state.topic}</h2>
      <div className="messages" aria-live="polite">
        {state.turns.map((t) => (
          <div key={t.messageId} className="msg" data-testid="debate-turn">
            <span className="who-said">
              {t.agentName} · round {t.round}
              {t.isDevilsAdvocate ? " · devil's advocate" : ''}
            </span>
            <CitedText text={t.text} passages={t.passages} onCite={onCite} />
          </div>
        ))}
      </div>
      {state.synthesis ? <SynthesisView synthesis={state.synthesis} nameOf={nameOf} /> : state.status === 'running' ? <p className="hint">The debate is running…</p> : null}
      {state.status === 'stopped' ? <p className="hint">Stopped.</p> : null}
      {state.error ? <ErrorNote error={{ graphQLErrors: [{ message: state.error.message, extensions: { code: state.error.code } }] }} /> : null}
    </article>
  );
}

function SynthesisView({ synthesis: s, nameOf }: { synthesis: DebateSynthesisView; nameOf: (id: string) => string }) {
  return (
    <div className="card" data-testid="synthesis">
      <p>
        <strong>Synthesis</strong> <span className="badge">{s.verdict}</span> <span className="hint">confidence {Math.round(s.confidence * 100)}%</span>
      </p>
      <p>{s.recommendation}</p>
      {s.agreements.length ? (
        <>
          <p className="label">Agreements</p>
          <ul>
            {s.agreements.map((a, i) => (
              <li key={i}>{a}</li>
            ))}
          </ul>
        </>
      ) : null}
      {s.disagreements.length ? (
        <>
          <p className="label">Open disagreements</p>
          <ul>
            {s.disagreements.map((d, i) => (
              <li key={i}>
                {d.point} {d.heldBy.length ? <span className="hint">(held by {d.heldBy.map(nameOf).join(', ')})</span> : null}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}
