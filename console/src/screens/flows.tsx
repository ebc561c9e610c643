import { stringifyDocument } from '@urql/core';
import { addEdge, Background, Controls, ReactFlow, useEdgesState, useNodesState, type Connection, type Edge, type Node } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useClient, useQuery } from 'urql';
import { Empty, ErrorNote, Field, Status } from '../components/ui.js';
import { graphql } from '../graphql.js';
import { layout, parseGraph, toGraph, toViewEdges, type FlowEdgeDoc, type FlowNodeDoc } from '../lib/flow-graph.js';
import { failureOf } from '../lib/errors.js';
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
  query FlowRunView($id: ID!) { flowRun(id: $id) { id status error steps { nodeKey type status summary error durationMs } } }
`);
const RunEvents = graphql(`subscription FlowRunEvents($id: ID!) { flowRunEvents(runId: $id) { seq type data } }`);
const CreateFlow = graphql(`mutation CreateFlow($input: CreateFlowInput!) { createFlow(input: $input) { flow { id } } }`);
const PutGraph = graphql(`mutation PutFlowGraph($id: ID!, $input: PutFlowGraphInput!) { putFlowGraph(id: $id, input: $input) { id version } }`);
const StartRun = graphql(`mutation StartFlowRun($id: ID!) { startFlowRun(flowId: $id) { id status } }`);
const Decide = graphql(`
  mutation DecideApproval($id: ID!, $input: DecideApprovalInput!) { decideFlowApproval(id: $id, input: $input) { id status } }
`);

const NEW_GRAPH = { nodes: [{ key: 'start', type: 'trigger.manual' }], edges: [] };

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
          <form className="card" style={{ marginTop: '1rem' }} onSubmit={(e) => void create(e)}>
            <Field label="New flow name" value={name} onChange={setName} required />
            <ErrorNote error={createError} />
            <button type="submit">Create flow</button>
          </form>
        </div>
        <div>{flow ? <FlowDetail key={`${flow.id}:${flow.version}`} flow={flow} onSaved={reload} onRunEvent={reloadInbox} /> : <p className="hint">Choose a flow to edit its graph and run it.</p>}</div>
      </div>
    </section>
  );
}

function Approvals({ approvals, onDecided }: { approvals: { id: string; flowName: string; question: string; status: string; createdAt: string; expiresAt: string }[]; onDecided: () => void }) {
  const client = useClient();
  const [comment, setComment] = useState<Record<string, string>>({});
  const [error, setError] = useState<unknown>(null);
  const [note, setNote] = useState<string | null>(null);
  const decide = async (id: string, decision: 'approve' | 'reject') => {
    const res = await client.mutation(Decide, { id, input: { decision, ...(comment[id] ? { comment: comment[id] } : {}) } }).toPromise();
    setError(res.error ?? null);
    if (res.data) setNote(`Decision recorded: ${res.data.decideFlowApproval.status}`);
    onDecided();
  };
  return (
    <section aria-labelledby="approvals-title" className="card" style={{ marginBottom: '1rem' }}>
      <h2 id="approvals-title" style={{ marginTop: 0 }}>
        Approvals waiting for you
      </h2>
      {note ? <p role="status">{note}</p> : null}
      <ErrorNote error={error} />
      {approvals.length === 0 ? (
        <p className="hint">Nothing to decide. Runs that reach an approval step wait here for a person.</p>
      ) : (
        <ul className="list" aria-label="Approvals">
          {approvals.map((a) => (
            <li key={a.id}>
              <strong>{a.question}</strong> <Status value={a.status} />
              <p className="hint">
                {a.flowName} · asked {formatTime(a.createdAt)} · expires {formatTime(a.expiresAt)}
              </p>
              <div className="row">
                <input aria-label={`Comment on “${a.question}”`} placeholder="Comment (optional)" value={comment[a.id] ?? ''} onChange={(e) => setComment((c) => ({ ...c, [a.id]: e.target.value }))} style={{ flex: 1 }} />
                <button type="button" className="primary" onClick={() => void decide(a.id, 'approve')} aria-label={`Approve “${a.question}”`}>
                  Approve
                </button>
                <button type="button" className="danger" onClick={() => void decide(a.id, 'reject')} aria-label={`Reject “${a.question}”`}>
                  Reject
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

type NodeData = { label: string; doc: FlowNodeDoc };
type EdgeData = { doc: FlowEdgeDoc };

function FlowDetail({ flow, onSaved, onRunEvent }: { flow: { id: string; name: string; version: number; graph: unknown }; onSaved: () => void; onRunEvent: (type: string) => void }) {
  const client = useClient();
  const doc = parseGraph(flow.graph);
  const [nodes, setNodes, onNodesChange] = useNodesState<Node<NodeData>>(layout(doc));
  const [edges, setEdges, onEdgesChange] = useEdgesState<Edge<EdgeData>>(toViewEdges(doc));
  const [key, setKey] = useState('');
  const [type, setType] = useState('transform');
  const [error, setError] = useState<unknown>(null);
  const [runId, setRunId] = useState<string | null>(null);
  const [runs, refetchRuns] = useQuery({ query: RunsQuery, variables: { id: flow.id }, requestPolicy: 'network-only' });

  const connect = (c: Connection) => setEdges((es) => addEdge({ ...c, data: { doc: { from: c.source, to: c.target } } }, es));
  const addNode = (e: FormEvent) => {
    e.preventDefault();
    if (!key.trim() || nodes.some((n) => n.id === key.trim())) return setError({ graphQLErrors: [{ message: 'Give the step a key no other step has.' }] });
    const d: FlowNodeDoc = { key: key.trim(), type: type.trim() };
    setNodes((ns) => [...ns, { id: d.key, position: { x: 40, y: 30 + ns.length * 110 }, data: { label: `${d.key} · ${d.type}`, doc: d } }]);
    setKey('');
    setError(null);
  };
  const save = async () => {
    const graph = toGraph(nodes, edges);
    const res = await client.mutation(PutGraph, { id: flow.id, input: { nodes: graph.nodes, edges: graph.edges, expectedVersion: flow.version } }).toPromise();
    setError(res.error ?? null);
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

  return (
    <article aria-labelledby="flow-title">
      <div className="toolbar">
        <h2 id="flow-title" style={{ margin: 0 }}>
          {flow.name} <span className="hint">v{flow.version}</span>
        </h2>
        <button type="button" onClick={() => void save()}>
          Save graph
        </button>
        <button type="button" className="primary" onClick={() => void run()}>
          Run now
        </button>
      </div>
      <ErrorNote error={error} />
      <div style={{ height: 360 }} className="chart" aria-label={`Graph of ${flow.name}: drag from a step's handle to another to connect them; select and press Backspace to remove`}>
        <ReactFlow nodes={nodes} edges={edges} onNodesChange={onNodesChange} onEdgesChange={onEdgesChange} onConnect={connect} fitView>
          <Background />
          <Controls />
        </ReactFlow>
      </div>
      <form className="row" onSubmit={addNode} style={{ marginTop: '0.5rem' }}>
        <Field label="Step key" value={key} onChange={setKey} />
        <Field label="Step type" value={type} onChange={setType} hint="e.g. approval, transform, http, agent, wait" />
        <button type="submit">Add step</button>
      </form>
      <h3>Runs</h3>
      <ErrorNote error={runs.error} />
      {runs.data && runs.data.flowRuns.length === 0 ? <p className="hint">No runs yet: “Run now” starts one.</p> : null}
      <ul className="list">
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
      {runId ? <RunLog key={runId} runId={runId} onEvent={onRunEvent} /> : null}
    </article>
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
            if (ev.type.startsWith('approval_')) onEventRef.current(ev.type);
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
