import { stringifyDocument } from '@urql/core';
import { addEdge, Background, Controls, ReactFlow, useEdgesState, useNodesState, type Connection, type Edge, type Node, type ReactFlowInstance } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useClient, useQuery } from 'urql';
import { Empty, ErrorNote, Field, FieldError, FormFailure, Status, useFieldFailure } from '../components/ui.js';
import { graphql } from '../graphql.js';
import { layout, parseGraph, toGraph, toViewEdges, type FlowEdgeDoc, type FlowNodeDoc } from '../lib/flow-graph.js';
import { ConsoleError, failureOf } from '../lib/errors.js';
import { checkStep, fieldText, freshKey, setField, STEP_KINDS, stepKindOf, type StepConfig } from '../lib/flow-steps.js';
import { formatTime } from '../lib/format.js';
import { useSse } from '../sse.js';

const FlowsQuery = graphql(`
  query Flows {
    flows { id name version enabled nextDueAt updatedAt graph }
  }
`);
const ApprovalsQuery = graphql(`
  query FlowApprovalsOpen { flowApprovals(openOnly: true) { id flowName question status createdAt expiresAt runId } }
`);
/** The inbox is read again at this pace while the page is visible, so approvals asked by any run (a schedule, an event, another person) appear without a reload. */
const INBOX_POLL_MS = 2000;
const RunsQuery = graphql(`
  query FlowRuns($id: ID!) { flowRuns(flowId: $id, limit: 10) { id status trigger createdAt finishedAt error } }
`);
const RunQuery = graphql(`
  query FlowRunView($id: ID!) { flowRun(id: $id) { id status error steps { nodeKey type status summary error durationMs output } } }
`);
const RunEvents = graphql(`subscription FlowRunEvents($id: ID!) { flowRunEvents(runId: $id) { seq type data } }`);
const CreateFlow = graphql(`mutation CreateFlow($input: CreateFlowInput!) { createFlow(input: $input) { flow { id } } }`);
const PutGraph = graphql(`mutation PutFlowGraph($id: ID!, $input: PutFlowGraphInput!) { putFlowGraph(id: $id, input: $input) { id version } }`);
const RefsQuery = graphql(`query FlowRefs { agents { id name isPoste } knowledgeCollections { id name } }`);
const UpdateFlow = graphql(`mutation UpdateFlowEnabled($id: ID!, $input: UpdateFlowInput!) { updateFlow(id: $id, input: $input) { id enabled } }`);
const ExportFlow = graphql(`query ExportFlow($id: ID!) { flowExport(id: $id) }`);
const ImportFlow = graphql(`mutation ImportFlow($document: JSON!) { importFlow(document: $document) { flow { id } } }`);
const StartRun = graphql(`mutation StartFlowRun($id: ID!) { startFlowRun(flowId: $id) { id status } }`);
const Decide = graphql(`
  mutation DecideApproval($id: ID!, $input: DecideApprovalInput!) { decideFlowApproval(id: $id, input: $input) { id status } }
`);

const NEW_GRAPH = { nodes: [{ key: 'start', type: 'trigger.manual' }], edges: [] };

/** The forms' fields in words, by their API names (a refusal names the field as the form does). */
const CREATE_LABELS = { name: 'New flow name' } as const;
const DECIDE_LABELS = { comment: 'Comment', decision: 'Decision' } as const;
const ADD_STEP_LABELS = { key: 'Step key', type: 'Step type' } as const;

export default function FlowsScreen() {
  const client = useClient();
  const [{ data, error }, refetch] = useQuery({ query: FlowsQuery });
  const [inbox, refetchInbox] = useQuery({ query: ApprovalsQuery });
  const reloadInbox = () => refetchInbox({ requestPolicy: 'network-only' });
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') reloadInbox();
    }, INBOX_POLL_MS);
    return () => clearInterval(timer);
  }, []);
  const [selected, setSelected] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [createError, setCreateError] = useState<unknown>(null);
  const reload = () => refetch({ requestPolicy: 'network-only' });
  const flow = data?.flows.find((f) => f.id === selected) ?? null;

  const create = async (e: FormEvent) => {
    e.preventDefault();
    const res = await client.mutation(CreateFlow, { input: { name, graph: NEW_GRAPH } }).toPromise();
    setCreateError(res.error ?? null);
    if (res.data) {
      setName('');
      setSelected(res.data.createFlow.flow.id);
      reload();
    }
  };

  return (
    <section aria-labelledby="flows-title">
      <h1 id="flows-title">Flows</h1>
      <ErrorNote error={error} />
      <ErrorNote error={inbox.error} />
      <Approvals approvals={inbox.data?.flowApprovals ?? []} onDecided={reloadInbox} />
      <div className="split">
        <div>
          <h2>Your flows</h2>
          {data && data.flows.length === 0 ? <Empty title="No flows yet">Name a flow below, then add its steps in the graph editor.</Empty> : null}
          <ul className="list">
            {data?.flows.map((f) => (
              <li key={f.id}>
                <button type="button" className="link-button" onClick={() => setSelected(f.id)} aria-pressed={f.id === selected}>
                  {f.name}
                </button>{' '}
                <span className="hint">
                  v{f.version} · {f.enabled ? 'enabled' : 'disabled'}
                  {f.nextDueAt ? ` · next ${formatTime(f.nextDueAt)}` : ''}
                </span>
              </li>
            ))}
          </ul>
          <FormFailure error={createError} labels={CREATE_LABELS}>
            <form className="card" style={{ marginTop: '1rem' }} onSubmit={(e) => void create(e)}>
              <Field label="New flow name" name="name" value={name} onChange={setName} required />
              <ErrorNote />
              <button type="submit">Create flow</button>
            </form>
          </FormFailure>
          <ImportForm
            onImported={(id) => {
              setSelected(id);
              reload();
            }}
          />
        </div>
        <div>{flow ? <FlowDetail key={`${flow.id}:${flow.version}`} flow={flow} onSaved={reload} onRunEvent={reloadInbox} /> : <p className="hint">Choose a flow to edit its graph and run it.</p>}</div>
      </div>
    </section>
  );
}

/** A flow document (service.flow/v1, as Export writes it) becomes a new, disabled flow. */
function ImportForm({ onImported }: { onImported: (id: string) => void }) {
  const client = useClient();
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<string | null>(null);
  const id = useId();
  const importFile = async (file: File | undefined, input: HTMLInputElement) => {
    if (!file) return;
    setError(null);
    setDone(null);
    let document: unknown;
    try {
      document = JSON.parse(await file.text());
    } catch {
      setError({ graphQLErrors: [{ message: `${file.name} is not a JSON flow document.` }] });
      input.value = '';
      return;
    }
    const res = await client.mutation(ImportFlow, { document }).toPromise();
    setError(res.error ?? null);
    input.value = '';
    if (res.data) {
      setDone(`Imported ${file.name} as a new flow, disabled until you enable it.`);
      onImported(res.data.importFlow.flow.id);
    }
  };
  return (
    <div className="card" style={{ marginTop: '1rem' }}>
      <div className="field" style={{ marginBottom: 0 }}>
        <label htmlFor={id}>Import a flow document</label>
        <input id={id} type="file" accept=".json,application/json" onChange={(e) => void importFile(e.target.files?.[0], e.target)} />
        <small className="hint">A .flow.json file from Export (format service.flow/v1); agents and collections are matched by name.</small>
      </div>
      {done ? <p role="status">{done}</p> : null}
      <ErrorNote error={error} />
    </div>
  );
}

type Approval = { id: string; flowName: string; question: string; status: string; createdAt: string; expiresAt: string };

function Approvals({ approvals, onDecided }: { approvals: Approval[]; onDecided: () => void }) {
  const client = useClient();
  const [comment, setComment] = useState<Record<string, string>>({});
  /** The last refused decision, said on its own approval (a comment too long is said at the comment). */
  const [refused, setRefused] = useState<{ id: string; error: unknown } | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const decide = async (id: string, decision: 'approve' | 'reject') => {
    const res = await client.mutation(Decide, { id, input: { decision, ...(comment[id] ? { comment: comment[id] } : {}) } }).toPromise();
    setRefused(res.error ? { id, error: res.error } : null);
    if (res.data) setNote(`Decision recorded: ${res.data.decideFlowApproval.status}`);
    onDecided();
  };
  return (
    <section aria-labelledby="approvals-title" className="card" style={{ marginBottom: '1rem' }}>
      <h2 id="approvals-title" style={{ marginTop: 0 }}>
        Approvals waiting for you
      </h2>
      {note ? <p role="status">{note}</p> : null}
      {refused && !approvals.some((a) => a.id === refused.id) ? <ErrorNote error={refused.error} labels={DECIDE_LABELS} /> : null}
      {approvals.length === 0 ? (
        <p className="hint">Nothing to decide. Runs that reach an approval step wait here for a person.</p>
      ) : (
        <ul className="list" aria-label="Approvals">
          {approvals.map((a) => (
            <FormFailure key={a.id} error={refused?.id === a.id ? refused.error : null} labels={DECIDE_LABELS}>
              <li>
                <strong>{a.question}</strong> <Status value={a.status} />
                <p className="hint">
                  {a.flowName} · asked {formatTime(a.createdAt)} · expires {formatTime(a.expiresAt)}
                </p>
                <div className="row">
                  <CommentBox question={a.question} value={comment[a.id] ?? ''} onChange={(v) => setComment((c) => ({ ...c, [a.id]: v }))} />
                  <button type="button" className="primary" onClick={() => void decide(a.id, 'approve')} aria-label={`Approve “${a.question}”`}>
                    Approve
                  </button>
                  <button type="button" className="danger" onClick={() => void decide(a.id, 'reject')} aria-label={`Reject “${a.question}”`}>
                    Reject
                  </button>
                </div>
                <ErrorNote />
              </li>
            </FormFailure>
          ))}
        </ul>
      )}
    </section>
  );
}

/** An approval's optional comment; a refusal of it is said under it. */
function CommentBox({ question, value, onChange }: { question: string; value: string; onChange: (v: string) => void }) {
  const refusal = useFieldFailure<HTMLInputElement>('comment');
  return (
    <div style={{ flex: 1 }}>
      <input
        ref={refusal.ref}
        aria-label={`Comment on “${question}”`}
        placeholder="Comment (optional)"
        value={value}
        aria-invalid={refusal.message ? true : undefined}
        aria-describedby={refusal.message ? refusal.errorId : undefined}
        onChange={(e) => onChange(e.target.value)}
        style={{ width: '100%' }}
      />
      <FieldError id={refusal.errorId} message={refusal.message} />
    </div>
  );
}

type NodeData = { label: ReactNode; doc: FlowNodeDoc };
type EdgeData = { doc: FlowEdgeDoc };
type Problem = { code: string; message: string; nodeKey?: string | null };
type FlowView = { id: string; name: string; version: number; enabled: boolean; graph: unknown };

const nodeLabel = (doc: FlowNodeDoc, problems: number): ReactNode =>
  problems === 0 ? (
    `${doc.key} · ${doc.type}`
  ) : (
    <>
      {`${doc.key} · ${doc.type}`}
      <span className="node-problem">
        {' '}⚠ {problems} problem{problems === 1 ? '' : 's'}
      </span>
    </>
  );

/** The problems of each step as a person can see them before saving (required fields, numbers, choices). */
function localProblems(nodes: readonly Node<NodeData>[]): Problem[] {
  return nodes.flatMap((n) => Object.values(checkStep(n.data.doc.type, n.data.doc.config as StepConfig | undefined)).map((message) => ({ code: 'invalid_config', message: `${n.id}: ${message}`, nodeKey: n.id })));
}

function problemsOf(error: unknown): Problem[] {
  const first = (error as { graphQLErrors?: { extensions?: { problems?: unknown } }[] } | null)?.graphQLErrors?.[0];
  return Array.isArray(first?.extensions?.problems) ? (first.extensions.problems as Problem[]) : [];
}

function download(name: string, body: unknown) {
  const url = URL.createObjectURL(new Blob([JSON.stringify(body, null, 2)], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function FlowDetail({ flow, onSaved, onRunEvent }: { flow: FlowView; onSaved: () => void; onRunEvent: (type: string) => void }) {
  const client = useClient();
  const doc = parseGraph(flow.graph);
  const [nodes, setNodes, onNodesChange] = useNodesState<Node<NodeData>>(layout(doc));
  const [edges, setEdges, onEdgesChange] = useEdgesState<Edge<EdgeData>>(toViewEdges(doc).map((e) => ({ ...e, label: typeof e.data.doc.when === 'string' ? e.data.doc.when : undefined })));
  const [selected, setSelected] = useState<string | null>(null);
  const [type, setType] = useState('approval');
  const [key, setKey] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [addError, setAddError] = useState<unknown>(null);
  const [serverProblems, setServerProblems] = useState<Problem[]>([]);
  const [note, setNote] = useState<string | null>(null);
  const [runId, setRunId] = useState<string | null>(null);
  const [runs, refetchRuns] = useQuery({ query: RunsQuery, variables: { id: flow.id }, requestPolicy: 'network-only' });
  const [refs] = useQuery({ query: RefsQuery });
  const view = useRef<ReactFlowInstance<Node<NodeData>, Edge<EdgeData>> | null>(null);

  const local = localProblems(nodes);
  const problems = [...local, ...serverProblems.filter((p) => !local.some((l) => l.nodeKey === p.nodeKey && l.message === p.message))];
  const perNode = (k: string) => problems.filter((p) => p.nodeKey === k).length;
  const shownNodes: Node<NodeData>[] = nodes.map((n) => ({ ...n, selected: n.id === selected, className: perNode(n.id) ? 'has-problem' : undefined, data: { ...n.data, label: nodeLabel(n.data.doc, perNode(n.id)) } }));

  const updateDoc = (k: string, fn: (d: FlowNodeDoc) => FlowNodeDoc) => {
    setServerProblems((ps) => ps.filter((p) => p.nodeKey !== k));
    setNodes((ns) => ns.map((n) => (n.id === k ? { ...n, data: { ...n.data, doc: fn(n.data.doc) } } : n)));
  };
  const connect = (from: string, to: string, when?: string) =>
    setEdges((es) => addEdge({ id: `${from}->${to}#${Date.now()}`, source: from, target: to, label: when, data: { doc: { from, to, ...(when ? { when } : {}) } } }, es));
  const onConnect = (c: Connection) => connect(c.source, c.target);
  const addNode = (e: FormEvent) => {
    e.preventDefault();
    const k = key.trim() || freshKey(type, nodes.map((n) => n.id));
    if (nodes.some((n) => n.id === k)) return setAddError(new ConsoleError(`A step is already called “${k}”: give this one another key.`, undefined, 'key'));
    const after = nodes.find((n) => n.id === selected);
    const lowest = Math.max(0, ...nodes.map((n) => n.position.y));
    const position = after ? { x: after.position.x, y: after.position.y + 110 } : { x: 40, y: lowest + 110 };
    const d: FlowNodeDoc = { key: k, type };
    setNodes((ns) => [...ns, { id: k, position, data: { label: '', doc: d } }]);
    if (after) connect(after.id, k, stepKindOf(after.data.doc.type)?.branches?.[0]);
    setSelected(k);
    setKey('');
    setAddError(null);
    // The new step is in view, whatever the zoom and scroll were.
    setTimeout(() => void view.current?.fitView({ duration: 0 }), 50);
  };
  const removeNode = (k: string) => {
    setNodes((ns) => ns.filter((n) => n.id !== k));
    setEdges((es) => es.filter((e) => e.source !== k && e.target !== k));
    setSelected(null);
  };
  const save = async () => {
    setNote(null);
    if (local.length) {
      setError({ graphQLErrors: [{ message: `Fix the problems shown on the steps first (${local.length}).` }] });
      return;
    }
    const graph = toGraph(nodes, edges);
    const res = await client.mutation(PutGraph, { id: flow.id, input: { nodes: graph.nodes, edges: graph.edges, expectedVersion: flow.version } }).toPromise();
    setError(res.error ?? null);
    setServerProblems(problemsOf(res.error));
    if (!res.error) onSaved();
  };
  const run = async () => {
    const res = await client.mutation(StartRun, { id: flow.id }).toPromise();
    setError(res.error ?? null);
    if (res.data) {
      setRunId(res.data.startFlowRun.id);
      refetchRuns({ requestPolicy: 'network-only' });
    }
  };
  const setEnabled = async (enabled: boolean) => {
    const res = await client.mutation(UpdateFlow, { id: flow.id, input: { enabled } }).toPromise();
    setError(res.error ?? null);
    if (!res.error) onSaved();
  };
  const exportDoc = async () => {
    const res = await client.query(ExportFlow, { id: flow.id }, { requestPolicy: 'network-only' }).toPromise();
    setError(res.error ?? null);
    if (res.data) {
      download(`${flow.name.replace(/[^\w.-]+/g, '-')}.flow.json`, res.data.flowExport);
      setNote('Exported: the flow document is in your downloads.');
    }
  };

  const current = nodes.find((n) => n.id === selected) ?? null;
  return (
    <article aria-labelledby="flow-title">
      <div className="toolbar">
        <h2 id="flow-title" style={{ margin: 0 }}>
          {flow.name} <span className="hint">v{flow.version}</span>
        </h2>
        <label className="row" style={{ gap: '0.3rem' }}>
          <input type="checkbox" checked={flow.enabled} onChange={(e) => void setEnabled(e.target.checked)} /> Enabled
        </label>
        <button type="button" onClick={() => void save()}>
          Save graph
        </button>
        <button type="button" onClick={() => void exportDoc()}>
          Export
        </button>
        <button type="button" className="primary" onClick={() => void run()}>
          Run now
        </button>
      </div>
      <p className="hint">{flow.enabled ? 'Enabled: its schedule, webhook and event triggers start runs.' : 'Disabled: only Run now starts it; enable it for its schedule, webhook and event triggers.'}</p>
      {note ? <p role="status">{note}</p> : null}
      <ErrorNote error={error} />
      {problems.length ? (
        <ul className="error" aria-label="Problems">
          {problems.map((p, i) => (
            <li key={i}>{p.message}</li>
          ))}
        </ul>
      ) : null}
      <p className="hint">Drag a step to place it; Save graph keeps the steps where they are.</p>
      <div style={{ height: 360 }} className="chart" aria-label={`Graph of ${flow.name}: select a step to edit it; drag a step to move it; drag from a step's handle to another to connect them`}>
        <ReactFlow
          nodes={shownNodes}
          edges={edges}
          onNodesChange={onNodesChange}
          onEdgesChange={onEdgesChange}
          onConnect={onConnect}
          onNodeClick={(_e, n) => setSelected(n.id)}
          onPaneClick={() => setSelected(null)}
          onInit={(instance) => (view.current = instance)}
          fitView
        >
          <Background />
          <Controls />
        </ReactFlow>
      </div>
      <div className="row" style={{ marginTop: '0.5rem' }}>
        <label htmlFor={`steps-${flow.id}`} className="label">
          Steps
        </label>
        <select id={`steps-${flow.id}`} value={selected ?? ''} onChange={(e) => setSelected(e.target.value || null)} style={{ flex: 1 }}>
          <option value="">Choose a step to edit…</option>
          {nodes.map((n) => (
            <option key={n.id} value={n.id}>
              {n.id} · {stepKindOf(n.data.doc.type)?.label ?? n.data.doc.type}
              {perNode(n.id) ? ' ⚠' : ''}
            </option>
          ))}
        </select>
      </div>
      {current ? (
        <Inspector
          key={current.id}
          node={current.data.doc}
          others={nodes.filter((n) => n.id !== current.id).map((n) => n.id)}
          outgoing={edges.filter((e) => e.source === current.id)}
          problems={problems.filter((p) => p.nodeKey === current.id && p.code !== 'invalid_config')}
          agents={refs.data?.agents.filter((a) => !a.isPoste) ?? []}
          collections={refs.data?.knowledgeCollections ?? []}
          onConfig={(config) => updateDoc(current.id, (d) => ({ ...d, config }))}
          onConnect={(to, when) => connect(current.id, to, when)}
          onDisconnect={(id) => setEdges((es) => es.filter((e) => e.id !== id))}
          onRemove={() => removeNode(current.id)}
          onClose={() => setSelected(null)}
        />
      ) : null}
      <FormFailure error={addError} labels={ADD_STEP_LABELS}>
        <form className="card" onSubmit={addNode} style={{ marginTop: '0.75rem' }} aria-labelledby={`add-step-${flow.id}`}>
          <h3 id={`add-step-${flow.id}`} style={{ marginTop: 0 }}>
            Add a step{current ? ` after “${current.id}”` : ''}
          </h3>
          <div className="field">
            <label htmlFor={`type-${flow.id}`}>Step type</label>
            <select id={`type-${flow.id}`} value={type} onChange={(e) => setType(e.target.value)}>
              {STEP_KINDS.map((k) => (
                <option key={k.type} value={k.type}>
                  {k.label} ({k.type})
                </option>
              ))}
            </select>
          </div>
          <Field label="Step key" name="key" value={key} onChange={setKey} hint={`Optional; names the step in templates ({{steps.<key>…}}). Empty: ${freshKey(type, nodes.map((n) => n.id))}.`} />
          <ErrorNote />
          <button type="submit">Add step</button>
        </form>
      </FormFailure>
      <h3>Runs</h3>
      <ErrorNote error={runs.error} />
      {runs.data && runs.data.flowRuns.length === 0 ? <p className="hint">No runs yet: “Run now” starts one.</p> : null}
      <ul className="list" aria-label={`Runs of ${flow.name}`}>
        {runs.data?.flowRuns.map((r) => (
          <li key={r.id}>
            <button type="button" className="link-button" onClick={() => setRunId(r.id)} aria-pressed={r.id === runId}>
              {formatTime(r.createdAt)} · {r.trigger}
            </button>{' '}
            <Status value={r.status} />
            {r.error ? <span className="hint"> {r.error}</span> : null}
          </li>
        ))}
      </ul>
      {runId ? (
        <RunLog
          key={runId}
          runId={runId}
          onEvent={(type) => {
            // The runs list follows the run on screen (its status changes with the events).
            refetchRuns({ requestPolicy: 'network-only' });
            if (type.startsWith('approval_')) onRunEvent(type);
          }}
        />
      ) : null}
    </article>
  );
}

/** One step's fields (checked as they are typed), its connections, and its removal. */
function Inspector(props: {
  node: FlowNodeDoc;
  others: string[];
  outgoing: Edge<EdgeData>[];
  problems: Problem[];
  agents: { id: string; name: string }[];
  collections: { id: string; name: string }[];
  onConfig: (config: StepConfig) => void;
  onConnect: (to: string, when?: string) => void;
  onDisconnect: (edgeId: string) => void;
  onRemove: () => void;
  onClose: () => void;
}) {
  const { node } = props;
  const kind = stepKindOf(node.type);
  const config = (node.config ?? {}) as StepConfig;
  const fieldProblems = checkStep(node.type, config);
  const [to, setTo] = useState('');
  const [when, setWhen] = useState(kind?.branches?.[0] ?? '');
  const base = useId();
  return (
    <section className="card inspector" aria-labelledby={`${base}-title`} style={{ marginTop: '0.75rem' }}>
      <div className="toolbar">
        <h3 id={`${base}-title`} style={{ margin: 0 }}>
          Step “{node.key}”
        </h3>
        <span className="hint">{kind ? `${kind.label} (${node.type})` : node.type}</span>
        <button type="button" onClick={props.onClose} style={{ marginLeft: 'auto' }}>
          Close step
        </button>
      </div>
      {kind ? <p className="hint">{kind.help}</p> : null}
      {kind && kind.fields.length === 0 ? <p className="hint">Nothing to set for this step.</p> : null}
      {kind?.fields.map((f) => {
        const id = `${base}-${f.name}`;
        const problem = fieldProblems[f.name];
        const describedBy = [f.hint ? `${id}-hint` : '', problem ? `${id}-problem` : ''].filter(Boolean).join(' ') || undefined;
        const common = { id, 'aria-invalid': problem ? true : undefined, 'aria-describedby': describedBy, required: f.required };
        return (
          <div className="field" key={f.name}>
            <label htmlFor={id}>
              {f.label}
              {f.required ? ' (required)' : ''}
            </label>
            {f.kind === 'multiline' ? (
              <textarea {...common} rows={3} value={fieldText(config, f)} onChange={(e) => props.onConfig(setField(config, f, e.target.value))} />
            ) : f.kind === 'select' || f.kind === 'agent' ? (
              <select {...common} value={fieldText(config, f)} onChange={(e) => props.onConfig(setField(config, f, e.target.value))}>
                <option value="">Choose…</option>
                {(f.kind === 'agent' ? props.agents.map((a) => ({ value: a.id, label: a.name })) : (f.options ?? []).map((o) => ({ value: o, label: o }))).map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </select>
            ) : f.kind === 'collections' ? (
              <select
                {...common}
                multiple
                value={Array.isArray(config[f.name]) ? (config[f.name] as string[]) : []}
                onChange={(e) => props.onConfig(setField(config, f, Array.from(e.target.selectedOptions, (o) => o.value)))}
              >
                {props.collections.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name}
                  </option>
                ))}
              </select>
            ) : (
              <input {...common} type={f.kind === 'number' ? 'number' : 'text'} value={fieldText(config, f)} onChange={(e) => props.onConfig(setField(config, f, e.target.value))} />
            )}
            {f.hint ? (
              <small id={`${id}-hint`} className="hint">
                {f.hint}
              </small>
            ) : null}
            {problem ? (
              <small id={`${id}-problem`} className="field-problem">
                {problem}
              </small>
            ) : null}
          </div>
        );
      })}
      {props.problems.map((p, i) => (
        <p key={i} className="error">
          {p.message}
        </p>
      ))}
      <h4>Next steps</h4>
      {props.outgoing.length === 0 ? <p className="hint">Nothing after this step yet.</p> : null}
      <ul className="list">
        {props.outgoing.map((e) => (
          <li key={e.id} className="row">
            <span>
              → {e.target}
              {e.data?.doc.when ? ` when ${e.data.doc.when}` : ''}
            </span>
            <button type="button" onClick={() => props.onDisconnect(e.id)} aria-label={`Remove the connection to ${e.target}`}>
              Remove
            </button>
          </li>
        ))}
      </ul>
      {props.others.length ? (
        <div className="row" style={{ marginTop: '0.5rem' }}>
          <div className="field" style={{ flex: 1 }}>
            <label htmlFor={`${base}-to`}>Connect to</label>
            <select id={`${base}-to`} value={to} onChange={(e) => setTo(e.target.value)}>
              <option value="">Choose a step…</option>
              {props.others.map((k) => (
                <option key={k} value={k}>
                  {k}
                </option>
              ))}
            </select>
          </div>
          {kind?.branches ? (
            <div className="field">
              <label htmlFor={`${base}-when`}>When</label>
              <select id={`${base}-when`} value={when} onChange={(e) => setWhen(e.target.value)}>
                {kind.branches.map((b) => (
                  <option key={b} value={b}>
                    {b}
                  </option>
                ))}
              </select>
            </div>
          ) : null}
          <button type="button" disabled={!to} onClick={() => (props.onConnect(to, kind?.branches ? when : undefined), setTo(''))}>
            Connect
          </button>
        </div>
      ) : null}
      <p>
        <button type="button" className="danger" onClick={props.onRemove}>
          Remove step “{node.key}”
        </button>
      </p>
    </section>
  );
}

/** A run's steps, and its events as they happen (flowRunEvents over graphql-sse, from the run's start). */
function RunLog({ runId, onEvent }: { runId: string; onEvent: (type: string) => void }) {
  const sse = useSse();
  const [lines, setLines] = useState<string[]>([]);
  const [failure, setFailure] = useState<unknown>(null);
  const [detail, refetch] = useQuery({ query: RunQuery, variables: { id: runId }, requestPolicy: 'network-only' });
  const refetchRef = useRef(refetch);
  refetchRef.current = refetch;
  const onEventRef = useRef(onEvent);
  onEventRef.current = onEvent;
  useEffect(
    () =>
      sse.subscribe<{ flowRunEvents: { seq: number; type: string; data: Record<string, unknown> } }>(
        { query: stringifyDocument(RunEvents), variables: { id: runId } },
        {
          next: (r) => {
            if (r.errors?.length) return setFailure({ graphQLErrors: r.errors });
            const ev = r.data?.flowRunEvents;
            if (!ev) return;
            const node = typeof ev.data.nodeKey === 'string' ? ` ${ev.data.nodeKey}` : '';
            setLines((l) => [...l, `#${ev.seq} ${ev.type}${node}`]);
            refetchRef.current({ requestPolicy: 'network-only' });
            onEventRef.current(ev.type);
          },
          error: (err) => setFailure({ graphQLErrors: [{ message: failureOf(err).message }] }),
          complete: () => undefined,
        },
      ),
    [runId],
  );
  return (
    <div className="card" aria-labelledby="run-title">
      <h3 id="run-title" style={{ marginTop: 0 }}>
        Run {runId} {detail.data ? <Status value={detail.data.flowRun.status} /> : null}
      </h3>
      <ErrorNote error={failure ?? detail.error} />
      <ul className="list">
        {detail.data?.flowRun.steps.map((s) => (
          <li key={s.nodeKey}>
            <strong>{s.nodeKey}</strong> <span className="hint">{s.type}</span> <Status value={s.status} />
            {s.summary ? <div>{s.summary}</div> : null}
            {s.error ? <div className="error">{s.error}</div> : null}
            {s.output !== null && s.output !== undefined ? (
              <details>
                <summary>Output of {s.nodeKey}</summary>
                <pre className="output">{JSON.stringify(s.output, null, 2)}</pre>
              </details>
            ) : null}
          </li>
        ))}
      </ul>
      <p className="label">Live log</p>
      <pre aria-live="polite" data-testid="run-log" style={{ whiteSpace: 'pre-wrap' }}>
        {lines.join('\n') || 'Waiting for events…'}
      </pre>
    </div>
  );
}
