import { useState, type FormEvent } from 'react';
import { useClient, useQuery } from 'urql';
import { Empty, ErrorNote, Field, FormFailure, SelectField, Status } from '../components/ui.js';
import { graphql, type ResultOf } from '../graphql.js';
import { count, formatTime } from '../lib/format.js';
import { hrefOf } from '../lib/routes.js';
import { Link } from '../router.js';

const PostesQuery = graphql(`
  query Postes {
    posteCatalogue { key name role mission checklist installed }
    postes { key name agentId checklist }
    dossiers { id name sourceCount }
  }
`);
const InstallPoste = graphql(`mutation InstallPoste($key: String!) { installPoste(key: $key) { key } }`);
const CreateDossier = graphql(`mutation CreateDossier($input: CreateDossierInput!) { createDossier(input: $input) { id } }`);
const RunPoste = graphql(`
  mutation RunPoste($key: String!, $dossierId: String!, $instructions: String) {
    runPoste(key: $key, dossierId: $dossierId, instructions: $instructions) {
      id posteKey dossierId status proofId totalTokens createdAt finishedAt
      items {
        checkpoint finding verdict
        citations { ref sourceName section page text }
        verification { counts { supported contradicted unverifiable } claims { text verdict rule } }
      }
    }
  }
`);

const PosteRuns = graphql(`
  query PosteRuns($key: String!) {
    posteRuns(posteKey: $key, limit: 10) {
      id posteKey dossierId status proofId totalTokens createdAt finishedAt
      items {
        checkpoint finding verdict
        citations { ref sourceName section page text }
        verification { counts { supported contradicted unverifiable } claims { text verdict rule } }
      }
    }
  }
`);

type Data = ResultOf<typeof PostesQuery>;

/** The forms' fields in words, by their API names (a refusal names the field as the form does). */
const DOSSIER_LABELS = { name: 'Dossier name', description: 'Description' } as const;
const RUN_LABELS = { dossierId: 'Dossier', instructions: 'Instructions' } as const;
type Run = ResultOf<typeof RunPoste>['runPoste'];

export default function PostesScreen() {
  const client = useClient();
  const [{ data, error }, refetch] = useQuery({ query: PostesQuery });
  const [catalogueError, setCatalogueError] = useState<unknown>(null);
  const [installing, setInstalling] = useState<string | null>(null);
  const reload = () => refetch({ requestPolicy: 'network-only' });

  const install = async (key: string) => {
    setInstalling(key);
    const res = await client.mutation(InstallPoste, { key }).toPromise();
    setInstalling(null);
    setCatalogueError(res.error ?? null);
    reload();
  };

  return (
    <section aria-labelledby="postes-title">
      <h1 id="postes-title">Postes</h1>
      <p className="hint">A poste is a ready-made reviewer: it answers each point of its checklist from one dossier, with citations, and the verifier checks every finding.</p>
      <ErrorNote error={error} />
      {!data ? (
        error ? null : <p>Loading…</p>
      ) : (
        <div className="split">
          <div>
            <h2 id="catalogue-title">Catalogue</h2>
            <ErrorNote error={catalogueError} />
            {data.posteCatalogue.length === 0 ? (
              <Empty title="The catalogue is empty">No template of poste is offered by this service.</Empty>
            ) : (
              <ul className="list" aria-labelledby="catalogue-title">
                {data.posteCatalogue.map((p) => (
                  <li key={p.key} data-testid={`template-${p.key}`}>
                    <strong>{p.name}</strong> {p.installed ? <Status value="installed" /> : null}
                    <div className="hint">
                      {p.role} — {p.mission}
                    </div>
                    <div className="hint">{p.checklist.length} control points</div>
                    <button
                      type="button"
                      onClick={() => void install(p.key)}
                      disabled={installing !== null}
                      aria-label={`Install ${p.name}`}
                    >
                      {installing === p.key ? 'Installing…' : 'Install'}
                    </button>
                  </li>
                ))}
              </ul>
            )}
            <DossierForm onCreated={reload} />
          </div>
          <div>
            <h2>Installed postes</h2>
            {data.postes.length === 0 ? (
              <Empty title="No poste installed yet">Install a template of the catalogue, then run it on a dossier.</Empty>
            ) : (
              data.postes.map((p) => <InstalledPoste key={p.key} poste={p} dossiers={data.dossiers} />)
            )}
          </div>
        </div>
      )}
    </section>
  );
}

function DossierForm({ onCreated }: { onCreated: () => void }) {
  const client = useClient();
  const [name, setName] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [created, setCreated] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const res = await client.mutation(CreateDossier, { input: { name } }).toPromise();
    setError(res.error ?? null);
    if (!res.error) {
      setCreated(name);
      setName('');
      onCreated();
    }
  };
  return (
    <FormFailure error={error} labels={DOSSIER_LABELS}>
      <form onSubmit={(e) => void submit(e)} aria-labelledby="new-dossier-title">
        <h2 id="new-dossier-title">New dossier</h2>
        <Field label="Dossier name" name="name" value={name} onChange={setName} required hint="A folder of documents for one matter; upload its documents in Knowledge." />
        <button type="submit" className="primary">
          Create dossier
        </button>
        <ErrorNote />
        {created ? (
          <p role="status">
            Dossier {created} created: upload its documents in <Link href={hrefOf('knowledge')}>Knowledge</Link>.
          </p>
        ) : null}
      </form>
    </FormFailure>
  );
}

function InstalledPoste({ poste, dossiers }: { poste: Data['postes'][number]; dossiers: Data['dossiers'] }) {
  const client = useClient();
  const [dossierId, setDossierId] = useState('');
  const [instructions, setInstructions] = useState('');
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [run, setRun] = useState<Run | null>(null);
  const [history, refetchHistory] = useQuery({ query: PosteRuns, variables: { key: poste.key } });
  const past = history.data?.posteRuns ?? [];
  const titleId = `poste-${poste.key}`;
  const chosen = dossierId || dossiers[0]?.id || '';

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setRunning(true);
    setError(null);
    const res = await client.mutation(RunPoste, { key: poste.key, dossierId: chosen, ...(instructions.trim() ? { instructions } : {}) }).toPromise();
    setRunning(false);
    setError(res.error ?? null);
    if (res.data) setRun(res.data.runPoste);
    refetchHistory({ requestPolicy: 'network-only' });
  };
  const dossierName = (id: string) => dossiers.find((d) => d.id === id)?.name ?? id;

  return (
    <article className="card" aria-labelledby={titleId} style={{ marginBottom: '1rem' }}>
      <h3 id={titleId} style={{ marginTop: 0 }}>
        {poste.name}
      </h3>
      <p className="label">Checklist</p>
      <ol aria-label={`Checklist of ${poste.name}`}>
        {poste.checklist.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ol>
      {dossiers.length === 0 ? (
        <Empty title="No dossier to run it on">
          Create a dossier (New dossier, on this page), then upload its documents in <Link href={hrefOf('knowledge')}>Knowledge</Link>.
        </Empty>
      ) : (
        <FormFailure error={error} labels={RUN_LABELS}>
          <form onSubmit={(e) => void submit(e)} aria-label={`Run ${poste.name} on a dossier`}>
            <SelectField label="Dossier" name="dossierId" value={chosen} onChange={setDossierId}>
              {dossiers.map((d) => (
                <option key={d.id} value={d.id}>
                  {d.name} ({count(d.sourceCount, 'document')})
                </option>
              ))}
            </SelectField>
            <Field label="Instructions (optional)" name="instructions" value={instructions} onChange={setInstructions} multiline rows={2} />
            <ErrorNote />
            <button type="submit" className="primary" disabled={running} aria-busy={running}>
              {running ? 'Running…' : 'Run on a dossier'}
            </button>
          </form>
        </FormFailure>
      )}
      {run ? <RunReport run={run} dossierName={dossierName(run.dossierId)} /> : null}
      <h4>Past runs</h4>
      <ErrorNote error={history.error} />
      {history.data && past.length === 0 ? <p className="hint">No runs yet: each run is kept here with its report.</p> : null}
      <ul className="list" aria-label={`Past runs of ${poste.name}`}>
        {past.map((r) => (
          <li key={r.id}>
            <button type="button" className="link-button" aria-pressed={run?.id === r.id} onClick={() => setRun(r)}>
              {dossierName(r.dossierId)} · {formatTime(r.createdAt)}
            </button>{' '}
            <Status value={r.status} />
          </li>
        ))}
      </ul>
    </article>
  );
}

function RunReport({ run, dossierName }: { run: Run; dossierName: string }) {
  return (
    <div role="region" aria-label={`Run report on ${dossierName}`} data-testid="run-report">
      <p role="status">
        Run on {dossierName}: <Status value={run.status} /> · {run.totalTokens} tokens
        {run.finishedAt ? ` · ${formatTime(run.finishedAt)}` : ''}
      </p>
      <p className="hint" style={{ overflowWrap: 'anywhere' }}>
        Proof: {run.proofId ? <code data-testid="run-proof">{run.proofId}</code> : 'none'} (see <Link href={hrefOf('proofs')}>Proofs</Link>)
      </p>
      <ol className="list" aria-label="Findings">
        {run.items.map((item) => (
          <li key={item.checkpoint} data-testid={`item-${item.checkpoint}`}>
            <strong>{item.checkpoint}</strong> <Status value={item.verdict} />
            <p style={{ margin: '0.25rem 0' }}>{item.finding}</p>
            {item.verification ? (
              <p className="hint">
                Verifier: {item.verification.counts.supported} supported, {item.verification.counts.contradicted} contradicted, {item.verification.counts.unverifiable}{' '}
                unverifiable
                {item.verification.claims
                  .filter((c) => c.verdict !== 'supported')
                  .map((c) => ` · “${c.text}”: ${c.verdict} (${c.rule})`)
                  .join('')}
              </p>
            ) : null}
            {item.citations.length > 0 ? (
              <ul aria-label={`Citations for ${item.checkpoint}`}>
                {item.citations.map((c) => (
                  <li key={c.ref} className="hint">
                    [{c.ref}] {c.sourceName}
                    {c.section ? ` · ${c.section}` : ''}
                    {c.page ? ` · p. ${c.page}` : ''}: {c.text.length > 240 ? `${c.text.slice(0, 240)}…` : c.text}
                  </li>
                ))}
              </ul>
            ) : null}
          </li>
        ))}
      </ol>
    </div>
  );
}
