import { useId, useState, type FormEvent } from 'react';
import { useClient, useQuery } from 'urql';
import { ConfirmDelete } from '../components/confirm-delete.js';
import { ListShell } from '../components/list-shell.js';
import { toastError, toastSuccess } from '../components/toasts.js';
import { Empty, ErrorNote, Field, FormFailure, Status } from '../components/ui.js';
import { graphql, type ResultOf } from '../graphql.js';
import { formatTime } from '../lib/format.js';

const PeopleQuery = graphql(`
  query People {
    people { id email name role state createdAt }
    viewer { userId workspace { id seats seatsUsed } }
  }
`);
const Invite = graphql(`
  mutation InvitePerson($input: InvitePersonInput!) { invitePerson(input: $input) { mailed expiresAt person { id email role state } } }
`);
const SetRole = graphql(`mutation SetPersonRole($id: ID!, $input: SetPersonRoleInput!) { setPersonRole(id: $id, input: $input) { id role } }`);
const Disable = graphql(`mutation DisablePerson($id: ID!) { disablePerson(id: $id) { id state } }`);

type Person = ResultOf<typeof PeopleQuery>['people'][number];
type Role = Person['role'];
const ROLES: { value: Role; words: string }[] = [
  { value: 'member', words: 'Member: uses the workspace' },
  { value: 'admin', words: 'Admin: also manages people, keys and settings' },
];

/** A person by name or e-mail; never by id (a workspace's first admin may have neither until they set an e-mail). */
const nameOf = (p: Person) => p.name || p.email || 'A person without an e-mail';

export default function PeopleScreen() {
  const [{ data, error }, refetch] = useQuery({ query: PeopleQuery });
  const reload = () => refetch({ requestPolicy: 'network-only' });
  const people = data?.people;
  const seated = people?.filter((p) => p.state !== 'disabled');
  const active = seated?.filter((p) => p.state === 'active');
  const pending = seated?.filter((p) => p.state === 'invited');
  const seats = data?.viewer.workspace.seats;
  const used = data?.viewer.workspace.seatsUsed;
  return (
    <section aria-labelledby="people-title">
      <h1 id="people-title">People</h1>
      {used !== undefined && seats !== undefined ? (
        <p className="seats">
          {used} of {seats} seat{seats === 1 ? '' : 's'} used · {Math.max(0, seats - used)} available
        </p>
      ) : null}
      <div className="split">
        <InviteForm onInvited={reload} full={used !== undefined && seats !== undefined && used >= seats} />
        <div>
          <h2>Members</h2>
          <ListShell
            label="People"
            items={active}
            error={error}
            searchText={(p) => `${p.name ?? ''} ${p.email ?? ''} ${p.role}`}
            empty={<Empty title="Nobody has signed in yet">Invite the people of your team with the form: each receives a link to choose a password.</Empty>}
          >
            {(list) => (
              <ul className="list" aria-label="People">
                {list.map((p) => (
                  <PersonItem key={p.id} person={p} me={p.id === data?.viewer.userId} onChanged={reload} />
                ))}
              </ul>
            )}
          </ListShell>
          <h2>Pending invitations</h2>
          <ListShell
            label="Pending invitations"
            items={pending}
            empty={<p className="hint">No invitation waiting: everyone invited has chosen a password.</p>}
          >
            {(list) => (
              <ul className="list" aria-label="Pending invitations">
                {list.map((p) => (
                  <PersonItem key={p.id} person={p} me={false} onChanged={reload} />
                ))}
              </ul>
            )}
          </ListShell>
        </div>
      </div>
    </section>
  );
}

/** The form's fields in words, by their API names (a refusal names the field as the form does). */
const INVITE_LABELS = { email: 'E-mail address', role: 'Role' } as const;

function InviteForm({ onInvited, full }: { onInvited: () => void; full: boolean }) {
  const client = useClient();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('member');
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const roleId = useId();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setNote(null);
    const res = await client.mutation(Invite, { input: { email: email.trim(), role } }).toPromise();
    setError(res.error ?? null);
    if (res.error) return toastError(res.error, 'The invitation was not sent', INVITE_LABELS);
    const inv = res.data!.invitePerson;
    const who = inv.person.email ?? email.trim();
    const msg = inv.mailed
      ? `Invitation mailed to ${who}; the link works until ${formatTime(inv.expiresAt)}.`
      : `${who} is invited, but no mail could be sent: ask them to use “Forgot your password?” on the sign-in page once mail works.`;
    setNote(msg);
    toastSuccess(`${who} invited`);
    setEmail('');
    onInvited();
  };
  return (
    <FormFailure error={error} labels={INVITE_LABELS}>
      <form className="card" onSubmit={(e) => void submit(e)} aria-labelledby="invite-title">
        <h2 id="invite-title" style={{ marginTop: 0 }}>
          Invite someone
        </h2>
        <Field label="E-mail address" name="email" type="email" value={email} onChange={setEmail} required autoComplete="off" />
        <div className="field">
          <label htmlFor={roleId}>Role</label>
          <select id={roleId} value={role} onChange={(e) => setRole(e.target.value as Role)}>
            {ROLES.map((r) => (
              <option key={r.value} value={r.value}>
                {r.words}
              </option>
            ))}
          </select>
        </div>
        {full ? <p className="hint">Every seat is taken: add seats to your subscription before inviting.</p> : null}
        <ErrorNote />
        <button type="submit" className="primary">
          Send invitation
        </button>
        {note ? <p role="status">{note}</p> : null}
      </form>
    </FormFailure>
  );
}

function PersonItem({ person: p, me, onChanged }: { person: Person; me: boolean; onChanged: () => void }) {
  const client = useClient();
  const roleId = useId();
  const label = nameOf(p);
  const changeRole = async (role: Role) => {
    const res = await client.mutation(SetRole, { id: p.id, input: { role } }).toPromise();
    if (res.error) toastError(res.error, 'The role was not changed');
    else toastSuccess(`${label} is now ${role === 'admin' ? 'an admin' : 'a member'}`);
    onChanged();
  };
  const remove = async () => {
    const res = await client.mutation(Disable, { id: p.id }).toPromise();
    if (res.error) throw res.error;
    toastSuccess(p.state === 'invited' ? `Invitation of ${label} withdrawn` : `${label} removed`);
    onChanged();
  };
  return (
    <li>
      <div className="row">
        <strong>{label}</strong>
        {p.name && p.email ? <span className="hint">{p.email}</span> : null}
        <Status value={p.state} />
        {me ? <span className="badge">you</span> : null}
      </div>
      <p className="hint">Since {formatTime(p.createdAt)}</p>
      <div className="row">
        <div className="field">
          <label htmlFor={roleId}>Role of {label}</label>
          <select id={roleId} value={p.role} onChange={(e) => void changeRole(e.target.value as Role)}>
            {ROLES.map((r) => (
              <option key={r.value} value={r.value}>
                {r.value === 'admin' ? 'Admin' : 'Member'}
              </option>
            ))}
          </select>
        </div>
        {me ? null : (
          <ConfirmDelete
            verb={p.state === 'invited' ? 'Withdraw' : 'Remove'}
            what={p.state === 'invited' ? `the invitation of ${label}` : label}
            label={p.state === 'invited' ? `Withdraw the invitation of ${label}` : `Remove ${label}`}
            consequence={
              p.state === 'invited'
                ? 'The link in their e-mail stops working.'
                : 'They are signed out at once and can no longer sign in. What they made stays.'
            }
            onConfirm={remove}
          />
        )}
      </div>
    </li>
  );
}
