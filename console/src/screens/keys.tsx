import { useState, type FormEvent } from 'react';
import { useClient, useQuery } from 'urql';
import { ConfirmDelete } from '../components/confirm-delete.js';
import { ListShell } from '../components/list-shell.js';
import { toastError, toastSuccess } from '../components/toasts.js';
import { ChoiceGroup, Empty, ErrorNote, Field, FormFailure, SecretOnce, Status } from '../components/ui.js';
import { graphql, type ResultOf } from '../graphql.js';
import { count, formatTime } from '../lib/format.js';
import { OFFERED_SCOPES, SCOPE_WORDS, scopeInWords, type ApiKeyScope } from '../lib/key-scopes.js';

const KeysQuery = graphql(`
  query ApiKeys {
    apiKeys { id name preview scopes readonly ratePerMinute monthlyQuestionLimit expiresAt revokedAt questionsThisMonth lastUsedAt createdAt }
  }
`);
const CreateKey = graphql(`
  mutation CreateApiKey($input: ApiKeyInput!) { createApiKey(input: $input) { secret key { id name } } }
`);
const UpdateKey = graphql(`
  mutation UpdateApiKey($id: ID!, $input: ApiKeyInput!) { updateApiKey(id: $id, input: $input) { id ratePerMinute monthlyQuestionLimit } }
`);
const RevokeKey = graphql(`mutation RevokeApiKey($id: ID!) { revokeApiKey(id: $id) { id revokedAt revokedDescendants } }`);

type Key = ResultOf<typeof KeysQuery>['apiKeys'][number];

/** What the New key form offers before anything is chosen, and again after each key is created. */
const DEFAULT_SCOPES: ApiKeyScope[] = ['agents'];

/** The New key form's fields in words, by their API names (a refusal names the field as the form does). */
const KEY_LABELS = {
  name: 'Key name',
  scopes: 'Scopes',
  expiresAt: 'Expires on',
  ratePerMinute: 'Requests per minute',
  monthlyQuestionLimit: 'Questions per month',
} as const;

/** The largest limit the service stores (a PostgreSQL integer): larger ones are refused by the browser, in words. */
const LIMIT_MAX = 2_147_483_647;

/** A limit field: empty means no limit. */
const limitOf = (text: string): number | null => (text.trim() === '' ? null : Number(text));

export default function KeysScreen() {
  const [{ data, error }, refetch] = useQuery({ query: KeysQuery });
  const [created, setCreated] = useState<{ id: string; secret: string; name: string } | null>(null);
  const reload = () => refetch({ requestPolicy: 'network-only' });
  return (
    <section aria-labelledby="keys-title">
      <h1 id="keys-title">API keys</h1>
      {created ? <SecretOnce label={`Key ${created.name}`} secret={created.secret} /> : null}
      <div className="split">
        <CreateForm
          onCreated={(c) => {
            setCreated(c);
            reload();
          }}
        />
        <div>
          <ListShell
            label="API keys"
            items={data?.apiKeys}
            error={error}
            searchText={(k) => `${k.name ?? ''} ${k.preview} ${k.scopes.join(' ')}`}
            empty={<Empty title="No API keys yet">Create a key for each program that calls the service, with only the scopes it needs.</Empty>}
          >
            {(keys) => (
              <ul className="list" aria-label="API keys">
                {keys.map((k) => (
                  <KeyItem
                    key={k.id}
                    apiKey={k}
                    onChanged={reload}
                    onRevoked={() => setCreated((c) => (c && c.id === k.id ? null : c))}
                  />
                ))}
              </ul>
            )}
          </ListShell>
        </div>
      </div>
    </section>
  );
}

function CreateForm({ onCreated }: { onCreated: (c: { id: string; secret: string; name: string }) => void }) {
  const client = useClient();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ApiKeyScope[]>(DEFAULT_SCOPES);
  const [expires, setExpires] = useState('');
  const [readonly, setReadonly] = useState(false);
  const [rate, setRate] = useState('');
  const [monthly, setMonthly] = useState('');
  const [error, setError] = useState<unknown>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const expiresAt = expires ? new Date(`${expires}T23:59:59Z`).toISOString() : null;
    const input = { name, scopes, readonly, ratePerMinute: limitOf(rate), monthlyQuestionLimit: limitOf(monthly), expiresAt };
    const res = await client.mutation(CreateKey, { input }).toPromise();
    setError(res.error ?? null);
    if (res.error) toastError(res.error, 'The key was not created', KEY_LABELS);
    if (res.data) {
      const made = res.data.createApiKey;
      onCreated({ id: made.key.id, secret: made.secret, name: made.key.name ?? name });
      toastSuccess(`Key ${made.key.name ?? name} created`);
      // The next key starts from the defaults, not from the last key's scopes and limits.
      setName('');
      setScopes(DEFAULT_SCOPES);
      setExpires('');
      setReadonly(false);
      setRate('');
      setMonthly('');
    }
  };
  return (
    <FormFailure error={error} labels={KEY_LABELS}>
      <form className="card" onSubmit={(e) => void submit(e)} aria-labelledby="new-key">
        <h2 id="new-key" style={{ marginTop: 0 }}>
          New key
        </h2>
        <Field label="Key name" name="name" value={name} onChange={setName} required />
        <ChoiceGroup name="scopes" legend="Scopes">
          <p className="hint" id="unrestricted-note" role="status">
            {scopes.length === 0
              ? 'No scope chosen: this key will be unrestricted and reach every part of the service.'
              : 'The key reaches only what its scopes name. With no scope chosen, a key is unrestricted.'}
          </p>
          {OFFERED_SCOPES.map((s) => (
            <label key={s} className="scope-choice">
              <input type="checkbox" checked={scopes.includes(s)} onChange={(e) => setScopes((l) => (e.target.checked ? [...l, s] : l.filter((x) => x !== s)))} />{' '}
              <span>
                <strong>{s}</strong> <span className="hint">{SCOPE_WORDS[s]}</span>
              </span>
            </label>
          ))}
        </ChoiceGroup>
        <label className="row field">
          <input type="checkbox" checked={readonly} onChange={(e) => setReadonly(e.target.checked)} /> Read-only
        </label>
        <Field label="Expires on" name="expiresAt" type="date" value={expires} onChange={setExpires} hint="Empty: the key never expires. It stops working at the end of that day (UTC)." />
        <Field label="Requests per minute" name="ratePerMinute" type="number" min={1} max={LIMIT_MAX} value={rate} onChange={setRate} hint="Empty: no per-key rate." />
        <Field label="Questions per month" name="monthlyQuestionLimit" type="number" min={1} max={LIMIT_MAX} value={monthly} onChange={setMonthly} hint="Empty: the workspace allowance only." />
        <ErrorNote />
        <button type="submit" className="primary">
          Create key
        </button>
      </form>
    </FormFailure>
  );
}

function KeyItem({ apiKey: k, onChanged, onRevoked }: { apiKey: Key; onChanged: () => void; onRevoked: () => void }) {
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
    if (res.error) toastError(res.error, 'The limits were not saved', KEY_LABELS);
    else toastSuccess(`Limits of ${label} saved`);
    onChanged();
  };
  const revoke = async () => {
    const res = await client.mutation(RevokeKey, { id: k.id }).toPromise();
    if (res.error) throw res.error;
    const others = res.data?.revokeApiKey.revokedDescendants ?? 0;
    toastSuccess(`Key ${label} revoked${others ? `, with ${others} key${others === 1 ? '' : 's'} it created` : ''}`);
    onRevoked();
    onChanged();
  };
  return (
    <FormFailure error={error} labels={KEY_LABELS}>
      <li>
        <div className="row">
          <strong>{label}</strong>
          <code>{k.preview}</code>
          <Status value={k.revokedAt ? 'revoked' : 'active'} />
          {k.readonly ? <span className="badge">read-only</span> : null}
        </div>
        <p className="hint">
          {k.scopes.length ? `Scopes: ${k.scopes.map(scopeInWords).join('; ')}` : 'Unrestricted: no scope, reaches every part of the service'}
        </p>
        <p className="hint">
          {count(k.questionsThisMonth, 'question')} this month · created {formatTime(k.createdAt)} ·{' '}
          {k.expiresAt ? `expires ${formatTime(k.expiresAt)}` : 'never expires'} · {k.lastUsedAt ? `last used ${formatTime(k.lastUsedAt)}` : 'never used'}
          {k.revokedAt ? ` · revoked ${formatTime(k.revokedAt)}` : ''}
        </p>
        {k.revokedAt ? null : (
          <form className="row" onSubmit={(e) => void save(e)}>
            <Field label={`Requests per minute for ${label}`} name="ratePerMinute" type="number" min={1} max={LIMIT_MAX} value={rate} onChange={setRate} />
            <Field label={`Questions per month for ${label}`} name="monthlyQuestionLimit" type="number" min={1} max={LIMIT_MAX} value={monthly} onChange={setMonthly} />
            <button type="submit">Save limits</button>
            <ConfirmDelete
              verb="Revoke"
              what={`the key ${label}`}
              label={`Revoke ${label}`}
              consequence="Programs using it stop at once, and so do the keys it created. This cannot be undone."
              onConfirm={revoke}
            />
          </form>
        )}
        {note ? <p role="status">{note}</p> : null}
        <ErrorNote />
      </li>
    </FormFailure>
  );
}
