import { useQuery } from 'urql';
import { UsageChart } from '../components/usage-chart.js';
import { Empty, ErrorNote } from '../components/ui.js';
import { graphql } from '../graphql.js';
import { formatTime, percent } from '../lib/format.js';

const UsageQuery = graphql(`
  query Usage {
    usage {
      month plan allowance used left allowanceLeft periodStart periodEnd
      packs { bought used left }
      byKey { keyId questions answers controls key { name preview } }
      byDay { date questions answers controls }
    }
  }
`);

export default function UsageScreen() {
  const [{ data, error }] = useQuery({ query: UsageQuery });
  const u = data?.usage;
  return (
    <section aria-labelledby="usage-title">
      <h1 id="usage-title">Usage</h1>
      <ErrorNote error={error} />
      {!u ? (
        <p>Loading…</p>
      ) : (
        <>
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
            <Empty title="No questions this window yet">Chat with an agent or call the API: each question counts here.</Empty>
          ) : (
            <UsageChart days={u.byDay} from={u.periodStart} to={u.periodEnd} />
          )}
          <h2>By key</h2>
          {u.byKey.length === 0 ? (
            <p className="hint">No key or person has asked anything in this window.</p>
          ) : (
            <div className="table-wrap">
              <table>
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
                      <td>{k.key ? `${k.key.name ?? 'unnamed'} (${k.key.preview})` : k.keyId?.startsWith('person:') ? `Signed-in person (${k.keyId.slice(7)})` : (k.keyId ?? '—')}</td>
                      <td>{k.questions}</td>
                      <td>{k.answers}</td>
                      <td>{k.controls}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </section>
  );
}
