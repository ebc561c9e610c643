import { useState } from 'react';
import { useQuery } from 'urql';
import { Empty, ErrorNote } from '../components/ui.js';
import { graphql } from '../graphql.js';
import { detailsText } from '../lib/audit-details.js';
import { formatTime } from '../lib/format.js';

/** The workspace's audit log (admins): who changed who can do what, newest first, filtered by kind, a page at a time. */
const AuditQuery = graphql(`
  query AuditLog($action: String, $cursor: String) {
    auditLog(action: $action, limit: 50, cursor: $cursor) {
      entries { id at action actor { type keyId userId email } target { type id } details address requestId }
      nextCursor
    }
  }
`);

/** The filter's choices: a kind of change and the actions it covers. */
const KINDS: { label: string; actions: string }[] = [
  { label: 'Everything', actions: '' },
  { label: 'API keys', actions: 'key.created,key.updated,key.revoked' },
  { label: 'People', actions: 'person.created,person.invited,person.invitation_accepted,person.role_changed,person.disabled,person.password_changed,person.password_reset' },
  { label: 'Sign-ins', actions: 'person.signed_in,person.sign_in_failed' },
  { label: 'Webhooks', actions: 'webhook.created,webhook.updated,webhook.secret_rotated,webhook.deleted' },
  { label: 'Flows', actions: 'flow.unattended_outbound_allowed,flow.unattended_outbound_withdrawn' },
  { label: 'Suspensions', actions: 'workspace.suspended,workspace.reinstated' },
];

const who = (a: { type: string; keyId: string | null; userId: string | null; email: string | null }): string =>
  a.type === 'person' ? (a.email ?? a.userId ?? 'a person') : a.type === 'key' ? `key ${a.keyId}${a.email ? ` (${a.email})` : ''}` : a.type === 'system' ? 'the operator (CLI)' : 'unknown client';

export default function AuditScreen() {
  const [actions, setActions] = useState('');
  // The cursors of the pages shown before this one, to go back.
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const cursor = cursors[cursors.length - 1];
  const [{ data, error, fetching }] = useQuery({ query: AuditQuery, variables: { action: actions || null, cursor }, requestPolicy: 'network-only' });
  const page = data?.auditLog;
  return (
    <section aria-labelledby="audit-title">
      <h1 id="audit-title">Audit</h1>
      <p className="hint">Changes of who can do what in this workspace: keys, people, sign-ins, webhooks, unattended flows, suspensions. Secrets are never recorded.</p>
      <label>
        Show{' '}
        <select
          value={actions}
          onChange={(e) => {
            setActions(e.target.value);
            setCursors([null]);
          }}
        >
          {KINDS.map((k) => (
            <option key={k.label} value={k.actions}>
              {k.label}
            </option>
          ))}
        </select>
      </label>
      <ErrorNote error={error} />
      {!page ? (
        error ? null : <p>Loading…</p>
      ) : page.entries.length === 0 ? (
        <Empty title="Nothing recorded yet">Creating a key, inviting someone or signing in adds an entry here.</Empty>
      ) : (
        <div className="table-wrap" tabIndex={0} role="region" aria-label="Audit entries">
          <table aria-label="Audit entries, newest first">
            <thead>
              <tr>
                <th scope="col">When (UTC)</th>
                <th scope="col">What</th>
                <th scope="col">Who</th>
                <th scope="col">From</th>
              </tr>
            </thead>
            <tbody>
              {page.entries.map((e) => (
                <tr key={e.id}>
                  <td className="when">{formatTime(e.at)}</td>
                  <td className="wraps">
                    {e.action} <span className="hint">{e.target.type} {e.target.id}</span>
                    {detailsText(e.details) ? <div className="hint">{detailsText(e.details)}</div> : null}
                  </td>
                  <td className="wraps">{who(e.actor)}</td>
                  <td className="wraps">
                    {e.address ?? '—'}
                    {e.requestId ? <div className="hint">request {e.requestId}</div> : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p>
        <button type="button" disabled={cursors.length < 2 || fetching} onClick={() => setCursors(cursors.slice(0, -1))}>
          Newer
        </button>{' '}
        <button type="button" disabled={!page?.nextCursor || fetching} onClick={() => page?.nextCursor && setCursors([...cursors, page.nextCursor])}>
          Older
        </button>
      </p>
    </section>
  );
}
