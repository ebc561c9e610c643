import { useState, type FormEvent } from 'react';
import { useClient, useQuery } from 'urql';
import { toastSuccess } from '../components/toasts.js';
import { ErrorNote, Field, FormFailure } from '../components/ui.js';
import { graphql } from '../graphql.js';
import { ConsoleError } from '../lib/errors.js';

const AccountQuery = graphql(`query Account { viewer { person { id email name role } workspace { id name } } }`);
const ChangePassword = graphql(`mutation ChangePassword($input: ChangePasswordInput!) { changePassword(input: $input) }`);

/** The form's fields in words, by their API names (a refusal names the field as the form does). */
const PASSWORD_LABELS = { currentPassword: 'Current password', newPassword: 'New password', newPasswordAgain: 'New password again' } as const;

/** The signed-in person's own account: who they are, and changing their password. */
export default function AccountScreen() {
  const [{ data }] = useQuery({ query: AccountQuery });
  const client = useClient();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [again, setAgain] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState(false);
  const person = data?.viewer.person;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setDone(false);
    if (next !== again) return setError(new ConsoleError('The two new passwords differ: type the same one twice.', undefined, 'newPasswordAgain'));
    const res = await client.mutation(ChangePassword, { input: { currentPassword: current, newPassword: next } }).toPromise();
    setError(res.error ?? null);
    if (res.error) return;
    setCurrent('');
    setNext('');
    setAgain('');
    setDone(true);
    toastSuccess('Password changed');
  };
  return (
    <section aria-labelledby="account-title">
      <h1 id="account-title">Your account</h1>
      {person ? (
        <p>
          {person.name ? `${person.name} · ` : ''}
          {person.email} · {person.role} of {data?.viewer.workspace.name}
        </p>
      ) : null}
      <FormFailure error={error} labels={PASSWORD_LABELS}>
        <form className="card narrow" onSubmit={(e) => void submit(e)} aria-labelledby="password-title">
          <h2 id="password-title" style={{ marginTop: 0 }}>
            Change your password
          </h2>
          <Field label="Current password" name="currentPassword" type="password" value={current} onChange={setCurrent} required autoComplete="current-password" />
          <Field label="New password" name="newPassword" type="password" value={next} onChange={setNext} required autoComplete="new-password" hint="10 to 200 characters." />
          <Field label="New password again" name="newPasswordAgain" type="password" value={again} onChange={setAgain} required autoComplete="new-password" />
          <ErrorNote />
          {done ? <p role="status">Your password is changed. Your other sessions are signed out; this one stays open.</p> : null}
          <button type="submit" className="primary">
            Change password
          </button>
        </form>
      </FormFailure>
    </section>
  );
}
