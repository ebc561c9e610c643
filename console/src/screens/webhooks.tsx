import { useState, type FormEvent } from 'react';
import { useClient, useQuery } from 'urql';
import { Empty, ErrorNote, Field, SecretOnce, Status } from '../components/ui.js';
import { graphql, type ResultOf } from '../graphql.js';
import { formatTime } from '../lib/format.js';

const WebhooksQuery = graphql(`
  query Webhooks { webhooks { id url description events isActive secretPreview createdAt } }
`);
const Deliveries = graphql(`
  query WebhookDeliveries($id: ID!) {
    webhookDeliveries(webhookId: $id) { id event success statusCode failureReason retryCount nextRetryAt deliveredAt createdAt }
  }
`);
const CreateWebhook = graphql(`
  mutation CreateWebhook($input: CreateWebhookInput!) { createWebhook(input: $input) { secret webhook { id url } } }
`);
const UpdateWebhook = graphql(`
  mutation PauseWebhook($id: ID!, $input: UpdateWebhookInput!) { updateWebhook(id: $id, input: $input) { id isActive } }
`);
const TestWebhook = graphql(`mutation TestWebhook($id: ID!) { testWebhook(id: $id) { success statusCode } }`);
const Replay = graphql(`
  mutation ReplayDelivery($webhookId: ID!, $deliveryId: ID!) { replayWebhookDelivery(webhookId: $webhookId, deliveryId: $deliveryId) { success statusCode } }
`);
const DeleteWebhook = graphql(`mutation DeleteWebhook($id: ID!) { deleteWebhook(id: $id) }`);

/** Event names a webhook can subscribe to (SPEC, Webhooks). */
const EVENTS = [
  'source.ingested',
  'source.failed',
  'knowledge.contradiction_detected',
  'knowledge.stale',
  'debate.synthesized',
  'flow.run.finished',
  'flow.approval.requested',
  'simulation.tick.completed',
  'simulation.report.ready',
];

type Webhook = ResultOf<typeof WebhooksQuery>['webhooks'][number];

export default function WebhooksScreen() {
  const [{ data, error }, refetch] = useQuery({ query: WebhooksQuery });
  const [created, setCreated] = useState<{ secret: string; url: string } | null>(null);
  const reload = () => refetch({ requestPolicy: 'network-only' });
  return (
    <section aria-labelledby="webhooks-title">
      <h1 id="webhooks-title">Webhooks</h1>
      <ErrorNote error={error} />
      {created ? <SecretOnce label={`Signing secret of ${created.url}`} secret={created.secret} /> : null}
      <div className="split">
        <CreateForm
          onCreated={(c) => {
            setCreated(c);
            reload();
          }}
        />
        <div>
          {!data ? (
            <p>Loading…</p>
          ) : data.webhooks.length === 0 ? (
            <Empty title="No webhooks yet">Add the address of your server and choose the events it should receive; a signed test event checks it.</Empty>
          ) : (
            <ul className="list" aria-label="Webhooks">
              {data.webhooks.map((w) => (
                <WebhookItem key={w.id} webhook={w} onChanged={reload} />
              ))}
            </ul>
          )}
        </div>
      </div>
    </section>
  );
}

function CreateForm({ onCreated }: { onCreated: (c: { secret: string; url: string }) => void }) {
  const client = useClient();
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<string[]>(['source.ingested']);
  const [error, setError] = useState<unknown>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const res = await client.mutation(CreateWebhook, { input: { url, events, ...(description ? { description } : {}) } }).toPromise();
    setError(res.error ?? null);
    if (res.data) {
      onCreated({ secret: res.data.createWebhook.secret, url: res.data.createWebhook.webhook.url });
      setUrl('');
      setDescription('');
    }
  };
  return (
    <form className="card" onSubmit={(e) => void submit(e)} aria-labelledby="new-webhook">
      <h2 id="new-webhook" style={{ marginTop: 0 }}>
        New webhook
      </h2>
      <Field label="Endpoint URL" type="url" value={url} onChange={setUrl} required placeholder="https://example.com/hooks" />
      <Field label="Description" value={description} onChange={setDescription} />
      <fieldset>
        <legend>Events</legend>
        {EVENTS.map((ev) => (
          <label key={ev} className="row">
            <input
              type="checkbox"
              checked={events.includes(ev)}
              onChange={(e) => setEvents((list) => (e.target.checked ? [...list, ev] : list.filter((x) => x !== ev)))}
            />{' '}
            {ev}
          </label>
        ))}
      </fieldset>
      <ErrorNote error={error} />
      <button type="submit" className="primary">
        Create webhook
      </button>
    </form>
  );
}

function WebhookItem({ webhook: w, onChanged }: { webhook: Webhook; onChanged: () => void }) {
  const client = useClient();
  const [open, setOpen] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [deliveries, refetchDeliveries] = useQuery({ query: Deliveries, variables: { id: w.id }, pause: !open, requestPolicy: 'network-only' });
  const outcome = (o: { success: boolean; statusCode?: number | null }) => (o.success ? `delivered (HTTP ${o.statusCode})` : `failed${o.statusCode ? ` (HTTP ${o.statusCode})` : ''}`);

  const act = async <T,>(run: () => Promise<{ error?: unknown; data?: T }>, after: (data: T) => string | null) => {
    setError(null);
    setNote(null);
    const res = await run();
    if (res.error) return setError(res.error);
    if (res.data) setNote(after(res.data));
    onChanged();
    if (open) refetchDeliveries({ requestPolicy: 'network-only' });
  };
  const test = () => act(() => client.mutation(TestWebhook, { id: w.id }).toPromise(), (d) => `Test event: ${outcome(d.testWebhook)}`);
  const pause = () =>
    act(() => client.mutation(UpdateWebhook, { id: w.id, input: { isActive: !w.isActive } }).toPromise(), (d) => (d.updateWebhook.isActive ? 'Resumed' : 'Paused'));
  const replay = (deliveryId: string) =>
    act(() => client.mutation(Replay, { webhookId: w.id, deliveryId }).toPromise(), (d) => `Replay: ${outcome(d.replayWebhookDelivery)}`);
  const remove = () => {
    if (!confirm(`Delete the webhook ${w.url}?`)) return;
    void act(() => client.mutation(DeleteWebhook, { id: w.id }).toPromise(), () => null);
  };

  return (
    <li>
      <div className="row">
        <strong style={{ overflowWrap: 'anywhere' }}>{w.url}</strong>
        <Status value={w.isActive ? 'active' : 'paused'} />
      </div>
      {w.description ? <p className="hint">{w.description}</p> : null}
      <p className="hint">
        Events: {w.events.join(', ')} · secret {w.secretPreview}
      </p>
      <div className="row">
        <button type="button" onClick={() => void test()} aria-label={`Send test to ${w.url}`}>
          Send test
        </button>
        <button type="button" onClick={() => void pause()} aria-label={`${w.isActive ? 'Pause' : 'Resume'} ${w.url}`}>
          {w.isActive ? 'Pause' : 'Resume'}
        </button>
        <button type="button" onClick={() => setOpen((o) => !o)} aria-expanded={open} aria-label={`Deliveries of ${w.url}`}>
          Deliveries
        </button>
        <button type="button" className="danger" onClick={remove} aria-label={`Delete ${w.url}`}>
          Delete
        </button>
      </div>
      {note ? <p role="status">{note}</p> : null}
      <ErrorNote error={error ?? deliveries.error} />
      {open ? (
        deliveries.data?.webhookDeliveries.length === 0 ? (
          <p className="hint">No deliveries yet: send a test event, or wait for one of the chosen events.</p>
        ) : (
          <div className="table-wrap">
            <table aria-label={`Deliveries of ${w.url}`}>
              <thead>
                <tr>
                  <th scope="col">Event</th>
                  <th scope="col">Status</th>
                  <th scope="col">Attempts</th>
                  <th scope="col">Created</th>
                  <th scope="col">
                    <span className="skip">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {deliveries.data?.webhookDeliveries.map((d) => (
                  <tr key={d.id}>
                    <td>{d.event}</td>
                    <td>
                      <Status value={d.success ? 'delivered' : d.nextRetryAt ? 'pending' : 'failed'} /> {d.statusCode ? `HTTP ${d.statusCode}` : ''}
                      {d.failureReason ? <div className="hint">{d.failureReason}</div> : null}
                    </td>
                    <td>{d.retryCount + 1}</td>
                    <td>{formatTime(d.createdAt)}</td>
                    <td>
                      <button type="button" onClick={() => void replay(d.id)} aria-label={`Replay delivery ${d.event} of ${formatTime(d.createdAt)}`}>
                        Replay
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )
      ) : null}
    </li>
  );
}
