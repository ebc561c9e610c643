import { useId, useState, type FormEvent } from 'react';
import { useClient, useQuery } from 'urql';
import { ConfirmDelete } from '../components/confirm-delete.js';
import { ListShell } from '../components/list-shell.js';
import { toastError, toastSuccess } from '../components/toasts.js';
import { ChoiceGroup, Empty, ErrorNote, Field, FormFailure, SecretOnce, Status } from '../components/ui.js';
import { graphql, type ResultOf } from '../graphql.js';
import { ConsoleError } from '../lib/errors.js';
import { formatTime } from '../lib/format.js';

const WebhooksQuery = graphql(`
  query Webhooks {
    webhooks { id url description events isActive secretPreview createdAt }
    webhookEvents { name description }
  }
`);
const Deliveries = graphql(`
  query WebhookDeliveries($id: ID!) {
    webhookDeliveries(webhookId: $id) { id event success statusCode failureReason retryCount nextRetryAt deliveredAt createdAt requestId responseBody payload }
  }
`);
const CreateWebhook = graphql(`
  mutation CreateWebhook($input: CreateWebhookInput!) { createWebhook(input: $input) { secret webhook { id url } } }
`);
const UpdateWebhook = graphql(`
  mutation UpdateWebhook($id: ID!, $input: UpdateWebhookInput!) { updateWebhook(id: $id, input: $input) { id url description events isActive } }
`);
const RotateSecret = graphql(`mutation RotateWebhookSecret($id: ID!) { rotateWebhookSecret(id: $id) { secret webhook { id url secretPreview } } }`);
const TestWebhook = graphql(`mutation TestWebhook($id: ID!) { testWebhook(id: $id) { success statusCode } }`);
const Replay = graphql(`
  mutation ReplayDelivery($webhookId: ID!, $deliveryId: ID!) { replayWebhookDelivery(webhookId: $webhookId, deliveryId: $deliveryId) { success statusCode } }
`);
const DeleteWebhook = graphql(`mutation DeleteWebhook($id: ID!) { deleteWebhook(id: $id) }`);

type Webhook = ResultOf<typeof WebhooksQuery>['webhooks'][number];

/** The form's fields in words, by their API names (a refusal names the field as the form does). */
const WEBHOOK_LABELS = { url: 'Endpoint URL', description: 'Description', events: 'Events' } as const;
type EventOption = ResultOf<typeof WebhooksQuery>['webhookEvents'][number];
type Delivery = ResultOf<typeof Deliveries>['webhookDeliveries'][number];

const outcome = (o: { success: boolean; statusCode?: number | null }) => (o.success ? `delivered (HTTP ${o.statusCode})` : `failed${o.statusCode ? ` (HTTP ${o.statusCode})` : ' (not reached)'}`);

export default function WebhooksScreen() {
  const [{ data, error, fetching }, refetch] = useQuery({ query: WebhooksQuery });
  const [secret, setSecret] = useState<{ secret: string; url: string } | null>(null);
  const reload = () => refetch({ requestPolicy: 'network-only' });
  const events = data?.webhookEvents ?? [];
  return (
    <section aria-labelledby="webhooks-title">
      <h1 id="webhooks-title">Webhooks</h1>
      {secret ? <SecretOnce key={secret.secret} label={`Signing secret of ${secret.url}`} secret={secret.secret} /> : null}
      <div className="split">
        <CreateForm
          events={events}
          onCreated={(c) => {
            setSecret(c);
            reload();
          }}
        />
        <div>
          <h2 style={{ marginTop: 0 }}>Endpoints</h2>
          <ListShell
            label="Webhooks"
            items={data?.webhooks}
            fetching={fetching}
            error={error}
            searchText={(w) => `${w.url} ${w.description} ${w.events.join(' ')}`}
            empty={<Empty title="No webhooks yet">Add the address of your server and choose the events it should receive; “Send test” then checks it with a signed test event.</Empty>}
          >
            {(items) => (
              <ul className="list" aria-label="Webhooks">
                {items.map((w) => (
                  <WebhookItem key={w.id} webhook={w} events={events} onChanged={reload} onSecret={setSecret} />
                ))}
              </ul>
            )}
          </ListShell>
        </div>
      </div>
    </section>
  );
}

/** The events offered are the service's own list (`webhookEvents`), each with what it means. */
function EventChoice({ events, chosen, onChange }: { events: readonly EventOption[]; chosen: string[]; onChange: (list: string[]) => void }) {
  return (
    <ChoiceGroup name="events" legend="Events">
      {events.length === 0 ? <p className="hint">Loading the events…</p> : null}
      {events.map((ev) => (
        <label key={ev.name} className="event-choice">
          <input type="checkbox" checked={chosen.includes(ev.name)} onChange={(e) => onChange(e.target.checked ? [...chosen, ev.name] : chosen.filter((x) => x !== ev.name))} />
          <span>
            <code>{ev.name}</code>
            <span className="hint"> — {ev.description}</span>
          </span>
        </label>
      ))}
    </ChoiceGroup>
  );
}

function CreateForm({ events, onCreated }: { events: readonly EventOption[]; onCreated: (c: { secret: string; url: string }) => void }) {
  const client = useClient();
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [chosen, setChosen] = useState<string[]>(['source.ingested']);
  const [error, setError] = useState<unknown>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (chosen.length === 0) return setError(new ConsoleError('Choose at least one event.', undefined, 'events'));
    const res = await client.mutation(CreateWebhook, { input: { url, events: chosen, ...(description ? { description } : {}) } }).toPromise();
    setError(res.error ?? null);
    if (res.data) {
      onCreated({ secret: res.data.createWebhook.secret, url: res.data.createWebhook.webhook.url });
      toastSuccess(`Webhook created for ${res.data.createWebhook.webhook.url}`);
      setUrl('');
      setDescription('');
    }
  };
  return (
    <FormFailure error={error} labels={WEBHOOK_LABELS}>
      <form className="card" onSubmit={(e) => void submit(e)} aria-labelledby="new-webhook">
        <h2 id="new-webhook" style={{ marginTop: 0 }}>
          New webhook
        </h2>
        <Field label="Endpoint URL" name="url" type="url" value={url} onChange={setUrl} required placeholder="https://example.com/hooks" />
        <Field label="Description" name="description" value={description} onChange={setDescription} />
        <EventChoice events={events} chosen={chosen} onChange={setChosen} />
        <ErrorNote />
        <button type="submit" className="primary">
          Create webhook
        </button>
      </form>
    </FormFailure>
  );
}

function EditForm({ webhook: w, events, onDone }: { webhook: Webhook; events: readonly EventOption[]; onDone: (saved: boolean) => void }) {
  const client = useClient();
  const [url, setUrl] = useState(w.url);
  const [description, setDescription] = useState(w.description);
  const [chosen, setChosen] = useState<string[]>(w.events);
  const [error, setError] = useState<unknown>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (chosen.length === 0) return setError(new ConsoleError('Choose at least one event.', undefined, 'events'));
    const res = await client.mutation(UpdateWebhook, { id: w.id, input: { url, description, events: chosen } }).toPromise();
    setError(res.error ?? null);
    if (!res.error) {
      toastSuccess('Webhook saved');
      onDone(true);
    }
  };
  return (
    <FormFailure error={error} labels={WEBHOOK_LABELS}>
      <form className="card" onSubmit={(e) => void submit(e)} aria-label={`Edit ${w.url}`}>
        <Field label="Endpoint URL" name="url" type="url" value={url} onChange={setUrl} required />
        <Field label="Description" name="description" value={description} onChange={setDescription} />
        <EventChoice events={events} chosen={chosen} onChange={setChosen} />
        <ErrorNote />
        <div className="row">
          <button type="submit" className="primary">
            Save changes
          </button>
          <button type="button" onClick={() => onDone(false)}>
            Cancel
          </button>
        </div>
      </form>
    </FormFailure>
  );
}

function WebhookItem(props: { webhook: Webhook; events: readonly EventOption[]; onChanged: () => void; onSecret: (s: { secret: string; url: string }) => void }) {
  const { webhook: w, onChanged } = props;
  const client = useClient();
  const titleId = useId();
  const [open, setOpen] = useState(false);
  const [editing, setEditing] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [deliveries, refetchDeliveries] = useQuery({ query: Deliveries, variables: { id: w.id }, pause: !open, requestPolicy: 'network-only' });

  const act = async <T,>(name: string, run: () => Promise<{ error?: unknown; data?: T }>, after: (data: T) => string | null, failed: string) => {
    setNote(null);
    setBusy(name);
    try {
      const res = await run();
      if (res.error) return toastError(res.error, failed);
      if (res.data) setNote(after(res.data));
      onChanged();
      if (open) refetchDeliveries({ requestPolicy: 'network-only' });
    } finally {
      setBusy(null);
    }
  };
  const test = () => act('test', () => client.mutation(TestWebhook, { id: w.id }).toPromise(), (d) => `Test event: ${outcome(d.testWebhook)}`, 'The test event was not sent');
  const pause = () =>
    act('pause', () => client.mutation(UpdateWebhook, { id: w.id, input: { isActive: !w.isActive } }).toPromise(), (d) => (d.updateWebhook.isActive ? 'Resumed' : 'Paused'), 'Not changed');
  const rotate = () =>
    act(
      'rotate',
      () => client.mutation(RotateSecret, { id: w.id }).toPromise(),
      (d) => {
        props.onSecret({ secret: d.rotateWebhookSecret.secret, url: w.url });
        return 'New signing secret: the old one no longer signs. Copy the new one above.';
      },
      'The secret was not rotated',
    );
  const replay = (deliveryId: string) =>
    act('replay', () => client.mutation(Replay, { webhookId: w.id, deliveryId }).toPromise(), (d) => `Replay: ${outcome(d.replayWebhookDelivery)}`, 'Not replayed');
  const remove = async () => {
    const res = await client.mutation(DeleteWebhook, { id: w.id }).toPromise();
    if (res.error) throw res.error;
    toastSuccess(`Webhook ${w.url} deleted`);
    onChanged();
  };

  return (
    <li aria-labelledby={titleId}>
      <div className="row">
        <strong id={titleId} style={{ overflowWrap: 'anywhere' }}>
          {w.url}
        </strong>
        <Status value={w.isActive ? 'active' : 'paused'} />
      </div>
      {w.description ? <p className="hint">{w.description}</p> : null}
      <p className="hint">
        Events: {w.events.join(', ')} · secret {w.secretPreview}
      </p>
      {editing ? (
        <EditForm
          webhook={w}
          events={props.events}
          onDone={(saved) => {
            setEditing(false);
            if (saved) onChanged();
          }}
        />
      ) : null}
      <div className="row">
        <button type="button" onClick={() => void test()} disabled={busy === 'test'} aria-busy={busy === 'test'}>
          {busy === 'test' ? 'Sending test…' : 'Send test'}
        </button>
        <button type="button" onClick={() => setEditing((e) => !e)} aria-expanded={editing}>
          Edit
        </button>
        <button type="button" onClick={() => void pause()}>
          {w.isActive ? 'Pause' : 'Resume'}
        </button>
        <button type="button" onClick={() => void rotate()} disabled={busy === 'rotate'}>
          Rotate secret
        </button>
        <button type="button" onClick={() => setOpen((o) => !o)} aria-expanded={open}>
          Deliveries
        </button>
        <ConfirmDelete what={`the webhook ${w.url}`} text="Delete" consequence="Its delivery log goes with it; events stop reaching this address at once." onConfirm={remove} />
      </div>
      {note ? <p role="status">{note}</p> : null}
      {open ? <DeliveryLog webhook={w} deliveries={deliveries.data?.webhookDeliveries} fetching={deliveries.fetching} error={deliveries.error} onReplay={(id) => void replay(id)} /> : null}
    </li>
  );
}

const stateOf = (d: Delivery) => (d.success ? 'delivered' : d.nextRetryAt ? 'pending' : 'failed');

function DeliveryLog(props: { webhook: Webhook; deliveries: readonly Delivery[] | undefined; fetching: boolean; error: unknown; onReplay: (id: string) => void }) {
  const [shown, setShown] = useState<string | null>(null);
  return (
    <div className="deliveries">
      <h3 className="label">Deliveries</h3>
      <ListShell
        label="Deliveries"
        items={props.deliveries}
        fetching={props.fetching}
        error={props.error}
        pageSize={10}
        searchText={(d) => `${d.event} ${stateOf(d)} ${d.statusCode ?? ''} ${d.failureReason ?? ''} ${formatTime(d.createdAt)}`}
        empty={<p className="hint">No deliveries yet: send a test event, or wait for one of the chosen events.</p>}
      >
        {(items) => (
          <ul className="list" aria-label={`Deliveries of ${props.webhook.url}`}>
            {items.map((d) => {
              const label = `${d.event} of ${formatTime(d.createdAt)}`;
              return (
                <li key={d.id}>
                  <div className="row">
                    <strong>{d.event}</strong>
                    <Status value={stateOf(d)} />
                    <span>{d.statusCode ? `HTTP ${d.statusCode}` : ''}</span>
                    <span className="hint">
                      {formatTime(d.createdAt)} · attempt {d.retryCount + 1}
                    </span>
                  </div>
                  {d.failureReason ? <p className="hint">{d.failureReason}</p> : null}
                  <div className="row">
                    <button type="button" aria-expanded={shown === d.id} aria-label={`Details of ${label}`} onClick={() => setShown((s) => (s === d.id ? null : d.id))}>
                      Details
                    </button>
                    <button type="button" aria-label={`Replay ${label}`} onClick={() => props.onReplay(d.id)}>
                      Replay
                    </button>
                  </div>
                  {shown === d.id ? <DeliveryDetail delivery={d} /> : null}
                </li>
              );
            })}
          </ul>
        )}
      </ListShell>
    </div>
  );
}

const pretty = (text: string | null | undefined): string => {
  if (!text) return '';
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
};

function DeliveryDetail({ delivery: d }: { delivery: Delivery }) {
  return (
    <div className="delivery-detail" role="group" aria-label={`Delivery ${d.id}`}>
      <p className="label">Payload sent</p>
      <pre className="output">
        {pretty(d.payload) || '—'}
      </pre>
      <p className="label">Response</p>
      <p>
        {d.statusCode ? `HTTP ${d.statusCode}` : 'No answer'}
        {d.deliveredAt ? ` · delivered ${formatTime(d.deliveredAt)}` : ''}
        {d.nextRetryAt ? ` · next attempt ${formatTime(d.nextRetryAt)}` : ''}
        {d.requestId ? ` · request ${d.requestId}` : ''}
      </p>
      <pre className="output">
        {d.responseBody || '(empty body)'}
      </pre>
    </div>
  );
}
