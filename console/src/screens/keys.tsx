import { useState, type FormEvent } from 'react';
import { useClient, useQuery } from 'urql';
import { Empty, ErrorNote, Field, SecretOnce, Status } from '../components/ui.js';
import { graphql, type ResultOf } from '../graphql.js';
import { formatTime } from '../lib/format.js';

const KeysQuery = graphql(`
  query ApiKeys {
    apiKeys { id name preview scopes readonly ratePerMinute monthlyQuestionLimit expiresAt revokedAt questionsThisMonth createdAt }
  }
`);
const CreateKey = graphql(`
  mutation CreateApiKey($input: ApiKeyInput!) { createApiKey(input: $input) { secret key { id name } } }
`);
const UpdateKey = graphql(`
  mutation UpdateApiKey($id: ID!, $input: ApiKeyInput!) { updateApiKey(id: $id, input: $input) { id ratePerMinute monthlyQuestionLimit } }
`);
const RevokeKey = graphql(`mutation RevokeApiKey($id: ID!) { revokeApiKey(id: $id) { id revokedAt revokedDescendants } }`);

const SCOPES = ['agents', 'knowledge', 'webhooks', 'engine', 'proof', 'light', 'reflex', 'partner'];
type Key = ResultOf<typeof KeysQuery>['apiKeys'][number];

/** A limit field: empty means no limit. */
const limitOf = (text: string): number | null => (text.trim() === '' ? null : Number(text));

export default function KeysScreen() {
  const [{ data, error }, refetch] = useQuery({ query: KeysQuery });
  const [created, setCreated] = useState<{ secret: string; name: string } | null>(null);
  const reload = () => refetch({ requestPolicy: 'network-only' });
  return (
    <section aria-labelledby="keys-title">
      <h1 id="keys-title">API keys</h1>
      <ErrorNote error={error} />
      {created ? <SecretOnce label={`Key ${created.name}`} secret={created.secret} /> : null}
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
          ) : data.apiKeys.length === 0 ? (
            <Empty title="No API keys yet">Create a key for each program that calls the service, with only the scopes it needs.</Empty>
          ) : (
            <ul className="list" aria-label="API keys">
              {data.apiKeys.map((k) => (
                <KeyItem key={k.id} apiKey={k} onChanged={reload} />
              ))}
            </ul>
          )}
        </div>
      </div>
    </section>
  );
}

function CreateForm({ onCreated }: { onCreated: (c: { secret: string; name: string }) => void }) {
  const client = useClient();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<string[]>(['agents']);
  const [readonly, setReadonly] = useState(false);
  const [rate, setRate] = useState('');
  const [monthly, setMonthly] = useState('');
  const [error, setError] = useState<unknown>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const input = { name, scopes, readonly, ratePerMinute: limitOf(rate), monthlyQuestionLimit: limitOf(monthly) };
    const res = await client.mutation(CreateKey, { input }).toPromise();
    setError(res.error ?? null);
    if (res.data) {
      onCreated({ secret: res.data.createApiKey.secret, name: res.data.createApiKey.key.name ?? name });
      setName('');
    }
  };
  return (
    <form className="card" onSubmit={(e) => void submit(e)} aria-labelledby="new-key">
      <h2 id="new-key" style={{ marginTop: 0 }}>
        New key
      </h2>
      <Field label="Key name" value={name} onChange={setName} required />
      <fieldset>
        <legend>Scopes</legend>
        {SCOPES.map((s) => (
          <label key={s} className="row">
            <input type="checkbox" checked={scopes.includes(s)} onChange={(e) => setScopes((l) => (e.target.checked ? [...l, s] : l.filter((x) => x !== s)))} /> {s}
          </label>
        ))}
      </fieldset>
      <label className="row field">
        <input type="checkbox" checked={readonly} onChange={(e) => setReadonly(e.target.checked)} /> Read-only
      </label>
      <Field label="Requests per minute" type="number" value={rate} onChange={setRate} hint="Empty: no per-key rate." />
      <Field label="Questions per month" type="number" value={monthly} onChange={setMonthly} hint="Empty: the workspace allowance only." />
      <ErrorNote error={error} />
      <button type="submit" className="primary">
        Create key
      </button>
    </form>
  );
}

function KeyItem({ apiKey: k, onChanged }: { apiKey: Key; onChanged: () => void }) {
  const client = useClient();
  const [rate, setRate] = useState(k.ratePerMinute?.toString() ?? '');
  const [monthly, setMonthly] = useState(k.monthlyQuestionLimit?.toString() ?? '');
  const [error, setError] = useState<unknown>(null);
  const [note, setNote] = useState<string | null>(null);
  const label = k.name ?? k.preview;
  const save = async (e: FormEvent) => {
    e.preventDefault();
    const res = await client.mutation(UpdateKey, { id: k.id, input: { ratePerMinute: limitOf(rate), monthlyQuestionLimit: limitOf(monthly) } }).toPromise();
    setError(res.error ?? null);
    setNote(res.error ? null : 'Limits saved');
    onChanged();
  };
  const revoke = async () => {
    if (!confirm(`Revoke the key ${label}? Programs using it stop at once, and so do the keys it created.`)) return;
    const res = await client.mutation(RevokeKey, { id: k.id }).toPromise();
    setError(res.error ?? null);
    onChanged();
  };
  return (
    <li>
      <div className="row">
        <strong>{label}</strong>
        <code>{k.preview}</code>
        <Status value={k.revokedAt ? 'revoked' : 'active'} />
        {k.readonly ? <span className="badge">read-only</span> : null}
      </div>
      <p className="hint">
        Scopes: {k.scopes.join(', ') || 'all'} · {k.questionsThisMonth} questions this month · created {formatTime(k.createdAt)}
      </p>
      {k.revokedAt ? null : (
        <form className="row" onSubmit={(e) => void save(e)}>
          <Field label={`Requests per minute for ${label}`} type="number" value={rate} onChange={setRate} />
          <Field label={`Questions per month for ${label}`} type="number" value={monthly} onChange={setMonthly} />
          <button type="submit">Save limits</button>
          <button type="button" className="danger" onClick={() => void revoke()} aria-label={`Revoke ${label}`}>
            Revoke
          </button>
        </form>
      )}
      {note ? <p role="status">{note}</p> : null}
      <ErrorNote error={error} />
    </li>
  );
}
