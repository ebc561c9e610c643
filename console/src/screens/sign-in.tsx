import { useState, type FormEvent } from 'react';
import { acceptInvitation, requestPasswordReset, signIn } from '../auth.js';
import { ErrorNote, Field, FormFailure } from '../components/ui.js';

/** The invitation form's fields in words, by their API names (a refusal names the field as the form does). */
const ACCEPT_LABELS = { name: 'Your name', email: 'E-mail', password: 'The password' } as const;
import { invitationTokenOf } from '../lib/routes.js';

export function SignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [forgot, setForgot] = useState(false);
  if (forgot) return <ForgotPassword email={email} onBack={() => setForgot(false)} />;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await signIn(email, password);
      onSignedIn();
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };
  return (
    <main className="centered">
      <form className="card narrow" onSubmit={(e) => void submit(e)} aria-labelledby="sign-in-title">
        <h1 id="sign-in-title">Sign in</h1>
        <Field label="E-mail" type="email" value={email} onChange={setEmail} required autoComplete="username" />
        <Field label="Password" type="password" value={password} onChange={setPassword} required autoComplete="current-password" />
        <ErrorNote error={error} focus />
        <div className="row">
          <button type="submit" className="primary" disabled={busy}>
            {busy ? 'Signing in…' : 'Sign in'}
          </button>
          <button type="button" className="link-button" onClick={() => setForgot(true)}>
            Forgot your password?
          </button>
        </div>
        <p className="hint">No account yet? Ask an admin of your workspace for an invitation; its link lets you choose a password.</p>
      </form>
    </main>
  );
}

/** Asks for a reset link; the answer never says whether the address has an account. */
function ForgotPassword({ email: initial, onBack }: { email: string; onBack: () => void }) {
  const [email, setEmail] = useState(initial);
  const [error, setError] = useState<unknown>(null);
  const [sent, setSent] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await requestPasswordReset(email.trim());
      setSent(email.trim());
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <main className="centered">
      <form className="card narrow" onSubmit={(e) => void submit(e)} aria-labelledby="forgot-title">
        <h1 id="forgot-title">Reset your password</h1>
        {sent ? (
          <p role="status">
            If an account uses {sent}, an e-mail with a link to choose a new password is on its way. The link works for one hour, once.
          </p>
        ) : (
          <>
            <p className="hint">Enter the e-mail you sign in with: we send a link to choose a new password.</p>
            <Field label="E-mail" type="email" value={email} onChange={setEmail} required autoComplete="username" />
            <ErrorNote error={error} focus />
            <button type="submit" className="primary" disabled={busy}>
              {busy ? 'Sending…' : 'Send the reset link'}
            </button>
          </>
        )}
        <p>
          <button type="button" className="link-button" onClick={onBack}>
            Back to sign in
          </button>
        </p>
      </form>
    </main>
  );
}

export function AcceptInvitation({ onSignedIn }: { onSignedIn: () => void }) {
  const token = invitationTokenOf(location.hash);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  if (!token) {
    return (
      <main className="centered">
        <section className="card narrow">
          <h1>Accept an invitation</h1>
          <p>This address needs the link from your invitation e-mail. Open the link from the mail again, or ask your admin to invite you once more.</p>
        </section>
      </main>
    );
  }
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await acceptInvitation({ token, password, ...(name.trim() ? { name: name.trim() } : {}), ...(email.trim() ? { email: email.trim() } : {}) });
      onSignedIn();
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };
  return (
    <main className="centered">
      <FormFailure error={error} labels={ACCEPT_LABELS}>
        <form className="card narrow" onSubmit={(e) => void submit(e)} aria-labelledby="accept-title">
          <h1 id="accept-title">Accept your invitation</h1>
          <Field label="Your name" name="name" value={name} onChange={setName} autoComplete="name" />
          <Field
            label="E-mail"
            name="email"
            type="email"
            value={email}
            onChange={setEmail}
            autoComplete="username"
            hint="Only for the first admin's invitation, which has no e-mail yet; leave empty otherwise."
          />
          <Field label="Choose a password" name="password" type="password" value={password} onChange={setPassword} required autoComplete="new-password" hint="10 to 200 characters." />
          <ErrorNote />
          <button type="submit" className="primary" disabled={busy}>
            {busy ? 'Signing in…' : 'Accept and sign in'}
          </button>
        </form>
      </FormFailure>
    </main>
  );
}
