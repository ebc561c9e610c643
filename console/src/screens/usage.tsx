import { useState } from 'react';
import { useQuery } from 'urql';
import { UsageChart } from '../components/usage-chart.js';
import { Empty, ErrorNote } from '../components/ui.js';
import { graphql, type ResultOf } from '../graphql.js';
import { formatTime, percent } from '../lib/format.js';
import { usageCsv } from '../lib/usage-csv.js';

const UsageQuery = graphql(`
  query Usage($month: String) {
    usage(month: $month) {
      month plan allowance used left allowanceLeft periodStart periodEnd
      packs { bought used left }
      byKey { keyId questions answers controls key { name preview } person { email name } }
      byDay { date questions answers controls }
    }
  }
`);

type KeyRow = ResultOf<typeof UsageQuery>['usage']['byKey'][number];

/** A row named in words: the key's name and preview, or the person's e-mail. */
const whoOf = (k: KeyRow): string =>
  k.key ? `${k.key.name ?? 'unnamed key'} (${k.key.preview})` : k.person ? (k.person.email ?? k.person.name ?? 'a person') : k.keyId?.startsWith('person:') ? 'a person no longer in the workspace' : (k.keyId ?? 'no key');

function download(filename: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export default function UsageScreen() {
  const [month, setMonth] = useState('');
  const [{ data, error, fetching }] = useQuery({ query: UsageQuery, variables: { month: month || null } });
  const u = data?.usage;
  return (
    <section aria-labelledby="usage-title">
      <div className="toolbar">
        <h1 id="usage-title">Usage</h1>
        <div className="field" style={{ margin: 0 }}>
          <label htmlFor="usage-month">Month</label>
          <input id="usage-month" type="month" value={month || u?.month || ''} onChange={(e) => setMonth(e.target.value)} />
        </div>
        <button
          type="button"
          disabled={!u}
          onClick={() => u && download(`usage-${u.month}.csv`, usageCsv(u.month, u.byKey.map((k) => ({ ...k, who: whoOf(k) }))))}
        >
          Export CSV
        </button>
      </div>
      <ErrorNote error={error} />
      {!u ? (
        error ? null : <p>Loading…</p>
      ) : (
        <div aria-busy={fetching}>
          <p className="hint">
            Plan {u.plan} · window {formatTime(u.periodStart)} to {formatTime(u.periodEnd)}
          </p>
          <div className="meter">
            <div>
              <span className="n">{u.allowance}</span>allowance
            </div>
            <div>
              <span className="n">{u.used}</span>used ({percent(u.used, u.allowance + u.packs.bought)}%)
            </div>
            <div>
              <span className="n">{u.left}</span>left
            </div>
            <div>
              <span className="n">{u.packs.left}</span>left in packs
            </div>
          </div>
          <progress value={u.used} max={Math.max(1, u.allowance + u.packs.bought)} aria-label="Share of the allowance used" />
          <h2>By day</h2>
          {u.byDay.length === 0 ? (
            <Empty title="No questions this window yet">Chat with an agent or call the API with a key: each question counts here.</Empty>
          ) : (
            <UsageChart days={u.byDay} from={u.periodStart} to={u.periodEnd} />
          )}
          <h2>By key or person</h2>
          {u.byKey.length === 0 ? (
            <p className="hint">No key or person has asked anything in this window. Choose another month above, or create an API key under API keys.</p>
          ) : (
            <div className="table-wrap">
              <table aria-label="Usage by key or person">
                <thead>
                  <tr>
                    <th scope="col">Key or person</th>
                    <th scope="col">Questions</th>
                    <th scope="col">Answers</th>
                    <th scope="col">Controls</th>
                  </tr>
                </thead>
                <tbody>
                  {u.byKey.map((k) => (
                    <tr key={k.keyId ?? 'none'}>
                      <td style={{ overflowWrap: 'anywhere' }}>{whoOf(k)}</td>
                      <td>{k.questions}</td>
                      <td>{k.answers}</td>
                      <td>{k.controls}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </div>
      )}
    </section>
  );
}
