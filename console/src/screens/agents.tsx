import { useState, type FormEvent } from 'react';
import { useClient, useQuery } from 'urql';
import { Empty, ErrorNote, Field, FormFailure } from '../components/ui.js';
import { graphql, type ResultOf } from '../graphql.js';
import { linesToList, listToLines } from '../lib/lines.js';
import { hrefOf } from '../lib/routes.js';
import { scopeChanges } from '../lib/scope.js';
import { Link } from '../router.js';

const AgentsQuery = graphql(`
  query Agents {
    agents {
      id name role personality mission decisionStyle systemPrompt isDevilsAdvocate isPoste
      expertise outOfScope checklist collectionScope
    }
    knowledgeCollections { id name }
    knowledgeSources { id name collectionId }
  }
`);

const CreateAgent = graphql(`
  mutation CreateAgent($input: CreateAgentInput!) { createAgent(input: $input) { id } }
`);
const UpdateAgent = graphql(`
  mutation UpdateAgent($id: ID!, $input: UpdateAgentInput!) { updateAgent(id: $id, input: $input) { id } }
`);
const SetLists = graphql(`
  mutation SetAgentLists($id: ID!, $input: AgentConsoleFieldsInput!) { updateAgentConsoleFields(id: $id, input: $input) { id } }
`);
const Link_ = graphql(`
  mutation LinkKnowledge($agentId: ID!, $sourceId: String, $collectionId: String) {
    linkKnowledge(agentId: $agentId, sourceId: $sourceId, collectionId: $collectionId) { collectionScope }
  }
`);
const Unlink = graphql(`
  mutation UnlinkKnowledge($agentId: ID!, $targetId: String!) { unlinkKnowledge(agentId: $agentId, targetId: $targetId) { collectionScope } }
`);
const DeleteAgent = graphql(`mutation DeleteAgent($id: ID!) { deleteAgent(id: $id) }`);

type Data = ResultOf<typeof AgentsQuery>;
type Agent = Data['agents'][number];

const PERSONA = [
  { key: 'name', label: 'Name' },
  { key: 'role', label: 'Role' },
  { key: 'personality', label: 'Personality', multiline: true },
  { key: 'mission', label: 'Mission', multiline: true },
  { key: 'decisionStyle', label: 'Decision style', multiline: true },
  { key: 'systemPrompt', label: 'System prompt', multiline: true },
] as const;
type PersonaKey = (typeof PERSONA)[number]['key'];

/** The form's fields in words, by their API names (a refusal names the field as the form does). */
const AGENT_LABELS = {
  ...Object.fromEntries(PERSONA.map((f) => [f.key, f.label])),
  isDevilsAdvocate: "Devil's advocate",
  expertise: 'Expertise',
  outOfScope: 'Out of scope',
  checklist: 'Checklist',
};

export default function AgentsScreen() {
  const [{ data, error, fetching }, refetch] = useQuery({ query: AgentsQuery });
  const [editing, setEditing] = useState<Agent | 'new' | null>(null);
  const [actionError, setActionError] = useState<unknown>(null);
  const client = useClient();
  const reload = () => refetch({ requestPolicy: 'network-only' });

  const remove = async (agent: Agent) => {
    if (!confirm(`Delete the agent ${agent.name}? Its memories go with it; chat sessions stay.`)) return;
    const res = await client.mutation(DeleteAgent, { id: agent.id }).toPromise();
    setActionError(res.error ?? null);
    reload();
  };

  if (editing && data) {
    return (
      <AgentForm
        agent={editing === 'new' ? null : editing}
        data={data}
        onDone={() => {
          setEditing(null);
          reload();
        }}
      />
    );
  }
  return (
    <section aria-labelledby="agents-title">
      <div className="toolbar">
        <h1 id="agents-title">Agents</h1>
        <button type="button" className="primary" onClick={() => setEditing('new')} disabled={!data}>
          New agent
        </button>
      </div>
      <ErrorNote error={error ?? actionError} />
      {!data ? (
        <p aria-busy={fetching}>Loading…</p>
      ) : data.agents.length === 0 ? (
        <Empty title="No agents yet">Create your first agent with “New agent”: give it a role, a personality and a mission, then chat with it.</Empty>
      ) : (
        <ul className="list" aria-label="Agents">
          {data.agents.map((a) => (
            <li key={a.id}>
              <div className="row">
                <strong>{a.name}</strong>
                <span className="hint">{a.role}</span>
                {a.isPoste ? <span className="badge">poste</span> : null}
                {a.isDevilsAdvocate ? <span className="badge">devil's advocate</span> : null}
                <span style={{ marginLeft: 'auto' }} className="row">
                  {a.isPoste ? null : (
                    <Link href={`${hrefOf('chat')}?agent=${encodeURIComponent(a.id)}`} aria-label={`Chat with ${a.name}`}>
                      Chat
                    </Link>
                  )}
                  <button type="button" onClick={() => setEditing(a)} aria-label={`Edit ${a.name}`}>
                    Edit
                  </button>
                  <button type="button" className="danger" onClick={() => void remove(a)} aria-label={`Delete ${a.name}`}>
                    Delete
                  </button>
                </span>
              </div>
              <p className="hint">{a.mission}</p>
              {a.expertise.length ? <p className="hint">Expertise: {a.expertise.join(', ')}</p> : null}
              {a.collectionScope.length ? <p className="hint">Knowledge: {a.collectionScope.length} linked</p> : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function AgentForm({ agent, data, onDone }: { agent: Agent | null; data: Data; onDone: () => void }) {
  const client = useClient();
  const [persona, setPersona] = useState<Record<PersonaKey, string>>(() => ({
    name: agent?.name ?? '',
    role: agent?.role ?? '',
    personality: agent?.personality ?? '',
    mission: agent?.mission ?? '',
    decisionStyle: agent?.decisionStyle ?? '',
    systemPrompt: agent?.systemPrompt ?? '',
  }));
  const [devil, setDevil] = useState(agent?.isDevilsAdvocate ?? false);
  const [expertise, setExpertise] = useState(listToLines(agent?.expertise ?? []));
  const [outOfScope, setOutOfScope] = useState(listToLines(agent?.outOfScope ?? []));
  const [checklist, setChecklist] = useState(listToLines(agent?.checklist ?? []));
  const [scope, setScope] = useState<string[]>(agent?.collectionScope ?? []);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const kinds = new Map<string, 'collection' | 'source'>([
    ...data.knowledgeCollections.map((c) => [c.id, 'collection'] as const),
    ...data.knowledgeSources.map((s) => [s.id, 'source'] as const),
  ]);

  const toggle = (id: string, on: boolean) => setScope((s) => (on ? [...s.filter((x) => x !== id), id] : s.filter((x) => x !== id)));

  const save = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    const fail = (err: unknown) => {
      setError(err);
      setBusy(false);
    };
    let id = agent?.id;
    if (id) {
      const res = await client.mutation(UpdateAgent, { id, input: { ...persona, isDevilsAdvocate: devil } }).toPromise();
      if (res.error) return fail(res.error);
    } else {
      const res = await client.mutation(CreateAgent, { input: { ...persona, isDevilsAdvocate: devil } }).toPromise();
      if (res.error || !res.data) return fail(res.error);
      id = res.data.createAgent.id;
    }
    const lists = { expertise: linesToList(expertise), outOfScope: linesToList(outOfScope), checklist: linesToList(checklist) };
    const changed = !agent || (['expertise', 'outOfScope', 'checklist'] as const).some((k) => lists[k].join('\n') !== agent[k].join('\n'));
    if (changed) {
      const res = await client.mutation(SetLists, { id, input: lists }).toPromise();
      if (res.error) return fail(res.error);
    }
    const { link, unlink } = scopeChanges(agent?.collectionScope ?? [], scope);
    for (const target of unlink) {
      const res = await client.mutation(Unlink, { agentId: id, targetId: target }).toPromise();
      if (res.error) return fail(res.error);
    }
    for (const target of link) {
      const vars = kinds.get(target) === 'collection' ? { agentId: id, collectionId: target } : { agentId: id, sourceId: target };
      const res = await client.mutation(Link_, vars).toPromise();
      if (res.error) return fail(res.error);
    }
    onDone();
  };

  const title = agent ? `Edit ${agent.name}` : 'New agent';
  return (
    <FormFailure error={error} labels={AGENT_LABELS}>
      <form onSubmit={(e) => void save(e)} aria-labelledby="agent-form-title">
        <div className="toolbar">
          <h1 id="agent-form-title">{title}</h1>
          <button type="button" onClick={onDone}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={busy}>
            {busy ? 'Saving…' : agent ? 'Save' : 'Create agent'}
          </button>
        </div>
        <ErrorNote />
        <div className="grid2">
          {PERSONA.map((f) => (
            <Field
              key={f.key}
              name={f.key}
              label={f.label}
              value={persona[f.key]}
              onChange={(v) => setPersona((p) => ({ ...p, [f.key]: v }))}
              required={!agent}
              multiline={'multiline' in f}
            />
          ))}
        </div>
        <div className="field">
          <label className="row">
            <input type="checkbox" checked={devil} onChange={(e) => setDevil(e.target.checked)} /> Devil's advocate (argues the other side in debates)
          </label>
        </div>
        <h2>Console-only fields</h2>
        <div className="grid2">
          <Field label="Expertise" name="expertise" multiline value={expertise} onChange={setExpertise} hint="One area per line." />
          <Field label="Out of scope" name="outOfScope" multiline value={outOfScope} onChange={setOutOfScope} hint="One topic per line that the agent declines." />
          <Field label="Checklist" name="checklist" multiline value={checklist} onChange={setChecklist} hint="One control per line." />
        </div>
        <fieldset>
          <legend>Knowledge scope</legend>
          <p className="hint">The agent reads and cites only the documents and collections checked here: with none checked, it reads no documents.</p>
          {kinds.size === 0 ? (
            <p className="hint">No documents yet: upload some under Knowledge, then come back and check the ones this agent reads.</p>
          ) : (
            <ul className="list">
              {data.knowledgeCollections.map((c) => (
                <li key={c.id}>
                  <label className="row">
                    <input type="checkbox" checked={scope.includes(c.id)} onChange={(e) => toggle(c.id, e.target.checked)} /> Collection: {c.name}
                  </label>
                </li>
              ))}
              {data.knowledgeSources.map((s) => (
                <li key={s.id}>
                  <label className="row">
                    <input type="checkbox" checked={scope.includes(s.id)} onChange={(e) => toggle(s.id, e.target.checked)} /> Document: {s.name}
                  </label>
                </li>
              ))}
            </ul>
          )}
        </fieldset>
      </form>
    </FormFailure>
  );
}
